// Where the snippet goes on the common site builders: short, generic steps (each builder's menus move
// now and then; the rule stays: first in <head>, on every page, before other scripts).
import type { TabItem } from '../../ui/tabs';

const head = <code>&lt;head&gt;</code>;

export const INSTALL_STEPS: TabItem[] = [
  {
    id: 'html',
    label: 'Any site (HTML)',
    content: (
      <ol>
        <li>Open the template or layout that writes the {head} of every page (or each page&apos;s HTML).</li>
        <li>Paste the snippet right after the opening {head} tag, before any other script.</li>
        <li>Publish the change, then reload your site: the privacy widget shows.</li>
      </ol>
    ),
  },
  {
    id: 'wordpress',
    label: 'WordPress',
    content: (
      <ol>
        <li>
          In the WordPress admin, use a header-code plugin (for example WPCode: Code Snippets → Header &amp; Footer) or
          your child theme&apos;s <code>header.php</code>.
        </li>
        <li>Paste the snippet into the header, as the first thing in {head}, before other scripts.</li>
        <li>Save, clear the cache of any caching plugin, and reload your site.</li>
      </ol>
    ),
  },
  {
    id: 'shopify',
    label: 'Shopify',
    content: (
      <ol>
        <li>In Shopify admin, go to Online Store → Themes, open the … menu of your live theme and choose Edit code.</li>
        <li>
          Open <code>layout/theme.liquid</code> and paste the snippet right after the opening {head} tag.
        </li>
        <li>Save, then reload your shop.</li>
      </ol>
    ),
  },
  {
    id: 'wix',
    label: 'Wix',
    content: (
      <ol>
        <li>In your site&apos;s dashboard, go to Settings → Custom code and choose Add Custom Code.</li>
        <li>Paste the snippet, choose All pages (load code once) and place the code in Head.</li>
        <li>Apply, then publish your site. (Custom code needs a premium plan and a connected domain.)</li>
      </ol>
    ),
  },
  {
    id: 'squarespace',
    label: 'Squarespace',
    content: (
      <ol>
        <li>Go to Settings → Advanced (or Developer tools) → Code Injection.</li>
        <li>Paste the snippet at the top of the Header field.</li>
        <li>Save, then reload your site. (Code injection needs a plan that includes it.)</li>
      </ol>
    ),
  },
  {
    id: 'gtm',
    label: 'Google Tag Manager',
    content: (
      <ol>
        <li>In your container, add a new tag of type Custom HTML and paste the snippet.</li>
        <li>Leave &quot;Support document.write&quot; off.</li>
        <li>
          Trigger it on All Pages and give it a high tag firing priority (Advanced settings), so it fires before your
          other tags.
        </li>
        <li>Save, then Submit and Publish the container.</li>
        <li>
          Scripts on the page itself run before Tag Manager: where you can, paste the snippet into {head} instead.
        </li>
      </ol>
    ),
  },
];
