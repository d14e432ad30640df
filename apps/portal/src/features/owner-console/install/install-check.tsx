// "Check installation": the API reads the site's home page now (it can take a while) and says whether the
// snippet is there, first in <head>; each status comes with what to do about it.
import type { InstallCheck, InstallCheckStatus } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { Badge, formatDate, Section } from '../../../ui/misc';
import type { ConsoleDomain } from '../access';
import { ownerKeys, ownerRoute } from '../api';

const head = <code>&lt;head&gt;</code>;

const OUTCOMES: Record<InstallCheckStatus, { label: string; tone: string; title: string; todo: ReactNode }> = {
  INSTALLED: {
    label: 'Installed',
    tone: 'green',
    title: 'The widget is installed',
    todo: 'Nothing. Check again whenever you change your site’s template or theme.',
  },
  NOT_FIRST_IN_HEAD: {
    label: 'Not first in <head>',
    tone: 'yellow',
    title: 'The snippet is there, but other scripts come before it',
    todo: (
      <>
        Move the snippet up, right after the opening {head} tag: scripts before it run before the visitor chooses, so
        they may set cookies without consent. Then check again.
      </>
    ),
  },
  NOT_FOUND: {
    label: 'Not found',
    tone: 'red',
    title: 'The snippet is not on the home page',
    todo: (
      <>
        Paste the snippet into the {head} of every page (the steps above), publish, then check again. A caching plugin
        or CDN may still serve the old page: clear its cache first.
      </>
    ),
  },
  UNREACHABLE: {
    label: 'Unreachable',
    tone: 'red',
    title: 'We could not open the site',
    todo: 'Make sure the home page opens in a browser, without a password or a maintenance page, then check again.',
  },
};

function Outcome({ result }: { result: InstallCheck }) {
  const outcome = OUTCOMES[result.status];
  return (
    <div className={`check-result check-${outcome.tone}`}>
      <p className="check-title">
        <Badge tone={outcome.tone}>{outcome.label}</Badge> <strong>{outcome.title}</strong>
      </p>
      <p>{result.message}</p>
      <h3 className="check-todo">What to do</h3>
      <p>{outcome.todo}</p>
      <dl className="facts">
        <dt>Page read</dt>
        <dd>{result.url}</dd>
        <dt>Snippet found</dt>
        <dd>{result.snippet_found ? 'Yes' : 'No'}</dd>
        <dt>First in {head}</dt>
        <dd>{result.first_in_head ? 'Yes' : 'No'}</dd>
        <dt>Checked</dt>
        <dd>{formatDate(result.checked_at)}</dd>
      </dl>
    </div>
  );
}

/** The check runs on demand (the button); its last answer stays while the owner moves between sections. */
export function InstallCheckCard({ domain }: { domain: ConsoleDomain }) {
  const check = useQuery({
    queryKey: ownerKeys.of(domain.id, 'install-check'),
    queryFn: async () => (await call(ownerRoute('checkOwnerInstall'), { params: { domainId: domain.id } })).result,
    enabled: false,
    retry: false,
  });
  const running = check.isFetching;
  const outcome = check.data && OUTCOMES[check.data.status];
  return (
    <Section
      title="Check the installation"
      actions={
        <Button variant="primary" busy={running} busyLabel="Checking…" onClick={() => void check.refetch()}>
          Check installation
        </Button>
      }
    >
      <p className="muted">
        We open the home page of {domain.hostname} now and look for the snippet, first in {head}. It can take up to half
        a minute.
      </p>
      {/* While it runs, what it does; then the outcome's title for screen readers (the card shows it). */}
      <p role="status" className={running ? 'check-running' : 'visually-hidden'}>
        {running && <span className="spinner" aria-hidden="true" />}
        {running ? `Reading ${domain.hostname}…` : outcome ? `Check finished: ${outcome.title}.` : ''}
      </p>
      {!running && check.isError && <FormMessage tone="error">{errorMessage(check.error)}</FormMessage>}
      {!running && check.data && <Outcome result={check.data} />}
    </Section>
  );
}
