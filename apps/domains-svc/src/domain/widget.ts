export const PRIVACY_CENTER_LINK = '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open();return false;">Privacy Center</a>';
export const PRIVACY_DNT_LINK =
  '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open(\'dsar\');return false;">Do Not Sell or Share My Personal Information</a>';

/** The script tag of a property; the script is served by the gateway's public widget endpoint. */
export const widgetScript = (widgetBaseUrl: string, propertyId: string) => `<script src="${widgetBaseUrl}/widget/${propertyId}.js" async></script>`;
