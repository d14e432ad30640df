// The embeds the widget holds behind a placeholder and the scanner flags when a site has not marked
// them: host -> vendor, for the placeholder's "This <vendor> content..." and the scan report. No zod
// here: the widget's bundle imports this file alone (@platform/contracts/widget-embeds).

/** A host (matched with its subdomains) and, for hosts that serve more than embeds, a path prefix. */
const EMBED_VENDORS: ReadonlyArray<readonly [host: string, vendor: string, path?: string]> = [
  ['youtube.com', 'YouTube'],
  ['youtube-nocookie.com', 'YouTube'],
  ['youtu.be', 'YouTube'],
  ['vimeo.com', 'Vimeo'],
  ['maps.google.com', 'Google Maps'],
  ['google.com', 'Google Maps', '/maps'],
  ['facebook.com', 'Facebook'],
  ['instagram.com', 'Instagram'],
  ['twitter.com', 'X (Twitter)'],
  ['x.com', 'X (Twitter)'],
  ['tiktok.com', 'TikTok'],
  ['linkedin.com', 'LinkedIn'],
  ['open.spotify.com', 'Spotify'],
  ['soundcloud.com', 'SoundCloud'],
];

/** The vendor of a known embed's URL (relative to `base`), or null (not a URL, or no vendor this list knows). */
export function embedVendor(url: string, base?: string): string | null {
  let host: string;
  let path: string;
  try {
    const u = new URL(url, base);
    host = u.hostname.toLowerCase().replace(/\.$/, '');
    path = u.pathname;
  } catch {
    return null;
  }
  for (const [h, vendor, prefix] of EMBED_VENDORS) {
    const onHost = host === h || host.slice(-h.length - 1) === '.' + h;
    if (onHost && (!prefix || path === prefix || path.indexOf(prefix + '/') === 0)) return vendor;
  }
  return null;
}
