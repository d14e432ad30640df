export const PRIVACY_CENTER_LINK =
  '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open();return false;">Privacy Center</a>';
export const PRIVACY_DNT_LINK =
  '<a href="#" onclick="window.PrivacyWidget&&window.PrivacyWidget.open(\'dsar\');return false;">Do Not Sell or Share My Personal Information</a>';

/**
 * The script tag of a property, pasted first in <head>: synchronous (no async/defer), so the
 * widget's loader runs before any other tag of the page and can hold back marked scripts. The
 * loader (served by the gateway) finds the property id and base URL from its own src.
 */
export const widgetScript = (widgetBaseUrl: string, propertyId: string) =>
  `<script src="${widgetBaseUrl}/widget/v1/${propertyId}/loader.js"></script>`;
