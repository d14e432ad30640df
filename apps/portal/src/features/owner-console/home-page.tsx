import { DataState } from '../../ui/data-state';
import { PageHeader } from '../../ui/misc';
import { Tabs } from '../../ui/tabs';
import { WidgetSnippet } from '../../ui/widget-snippet';
import { INSTALL_STEPS } from './install-steps';
import { useOwnerSession } from './session';

/** The console's home: each of the customer's domains (from the session) with its snippet and install steps. */
export default function OwnerHomePage() {
  // The guard (owner-console.tsx) shows this screen only with a session.
  const session = useOwnerSession().data!;
  const partner = session.partner.name;
  return (
    <>
      <PageHeader
        title="Your websites"
        description={`Install ${partner}'s privacy widget on each of your websites: copy its snippet, then follow the steps for your site builder.`}
      />
      <DataState
        loading={false}
        empty={session.domains.length === 0}
        emptyTitle="No websites yet"
        emptyText={`When ${partner} adds a website to your account, its snippet shows here.`}
      >
        {session.domains.map((domain) => (
          <WidgetSnippet key={domain.id} title={domain.hostname} code={domain.privacy_widget}>
            <h3 className="install-title">How to install</h3>
            <Tabs label={`Install steps for ${domain.hostname}`} tabs={INSTALL_STEPS} />
          </WidgetSnippet>
        ))}
      </DataState>
    </>
  );
}
