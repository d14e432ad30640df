export const PRIVACY_CENTER_LINK = '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open();return false;">Privacy Center</a>';
export const PRIVACY_DNT_LINK =
  '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open(\'dsar\');return false;">Do Not Sell or Share My Personal Information</a>';

/** The script tag of a property; the script is served by the gateway's public widget endpoint. */
export const widgetScript = (widgetBaseUrl: string, propertyId: string) => `<script src="${widgetBaseUrl}/widget/${propertyId}.js" async></script>`;

/** The embed snippets of a property. */
export function widgetSnippets(widgetBaseUrl: string, propertyId: string) {
  return {
    privacy_widget: widgetScript(widgetBaseUrl, propertyId),
    privacy_center_link: PRIVACY_CENTER_LINK,
    privacy_dnt_link: PRIVACY_DNT_LINK,
  };
}
