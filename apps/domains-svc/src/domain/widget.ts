/** The embed snippets of a property; the script is served by the gateway's public widget endpoint. */
export function widgetSnippets(widgetBaseUrl: string, propertyId: string) {
  return {
    privacy_widget: `<script src="${widgetBaseUrl}/widget/${propertyId}.js" async></script>`,
    privacy_center_link: '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open();return false;">Privacy Center</a>',
    privacy_dnt_link:
      '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open(\'dsar\');return false;">Do Not Sell or Share My Personal Information</a>',
  };
}
