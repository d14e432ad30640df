import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { emailTemplateRoutes } from '../../api/pending-templates.routes';
import type { EmailTemplate } from '../../api/pending.schema';

type Kind = EmailTemplate['kind'];
const KEYS = ['email-templates'] as const;

export const TEMPLATE_NAMES: Record<Kind, string> = {
  INVITATION: 'Invitation',
  INTRO: 'Intro',
  SCAN_REPORT: 'Scan report',
  ACTIVATION_REMINDER: 'Activation reminder',
};

export function useTemplates() {
  return useQuery({
    queryKey: KEYS,
    queryFn: async () => (await call(emailTemplateRoutes.listEmailTemplates)).result,
  });
}

export function useTemplate(kind: Kind) {
  return useQuery({
    queryKey: [...KEYS, kind],
    queryFn: async () => (await call(emailTemplateRoutes.getEmailTemplate, { params: { kind } })).result,
  });
}

export function useTemplateMutations(kind: Kind) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: KEYS });
  return {
    save: useMutation({
      mutationFn: async (body: { subject: string; body: string }) =>
        (await call(emailTemplateRoutes.updateEmailTemplate, { params: { kind }, body })).result,
      onSuccess: refresh,
    }),
    reset: useMutation({
      mutationFn: () => call(emailTemplateRoutes.resetEmailTemplate, { params: { kind } }),
      onSuccess: refresh,
    }),
    test: useMutation({ mutationFn: () => call(emailTemplateRoutes.sendTestEmail, { params: { kind } }) }),
  };
}

/** The rendered preview of the draft, asked for once typing pauses (400 ms). */
export function usePreview(kind: Kind, draft: { subject: string; body: string } | null) {
  const [debounced, setDebounced] = useState(draft);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(draft), 400);
    return () => clearTimeout(timer);
  }, [draft]);
  return useQuery({
    queryKey: [...KEYS, kind, 'preview', debounced],
    queryFn: async () =>
      (await call(emailTemplateRoutes.previewEmailTemplate, { params: { kind }, body: debounced! })).result,
    enabled: !!debounced && debounced.subject.trim() !== '' && debounced.body !== '',
    placeholderData: (previous) => previous,
    retry: false,
  });
}
