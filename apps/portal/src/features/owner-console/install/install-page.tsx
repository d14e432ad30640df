import { PageHeader } from '../../../ui/misc';
import { Tabs } from '../../../ui/tabs';
import { WidgetSnippet } from '../../../ui/widget-snippet';
import { useOwnerAccess, useSectionDomain } from '../access';
import { INSTALL_STEPS } from '../install-steps';
import { InstallCheckCard } from './install-check';

/** Install: the website's snippet and the steps per site builder, then a check that it is in place. */
export default function InstallPage() {
  const domain = useSectionDomain();
  const partner = useOwnerAccess().session.partner.name;
  return (
    <>
      <PageHeader
        title="Install the widget"
        description={`Put ${partner}'s privacy widget on ${domain.hostname}: copy the snippet, add it with your site builder, then check it.`}
      />
      <WidgetSnippet code={domain.privacy_widget}>
        <h3 className="install-title">How to install</h3>
        <Tabs label={`Install steps for ${domain.hostname}`} tabs={INSTALL_STEPS} />
      </WidgetSnippet>
      <InstallCheckCard domain={domain} />
    </>
  );
}
