import { z } from 'zod';

export const INSTALL_CHECK_STATUSES = ['INSTALLED', 'NOT_FIRST_IN_HEAD', 'NOT_FOUND', 'UNREACHABLE'] as const;
export const installCheckStatusSchema = z.enum(INSTALL_CHECK_STATUSES);
export type InstallCheckStatus = z.infer<typeof installCheckStatusSchema>;

/** Whether the domain's home page carries the widget snippet, first in <head> (scripts before it run unblocked). */
export const installCheckSchema = z
  .object({
    domain_id: z.string(),
    url: z.string().meta({ description: 'The page read (the home page, https first)' }),
    status: installCheckStatusSchema,
    snippet_found: z.boolean(),
    first_in_head: z.boolean().meta({ description: 'No other script comes before the snippet in <head>' }),
    message: z.string().meta({ description: 'What was found, and what to change, in one sentence' }),
    checked_at: z.string(),
  })
  .meta({ id: 'InstallCheck' });
export type InstallCheck = z.infer<typeof installCheckSchema>;
