import type { Options } from 'amqplib';

/**
 * AMQP_URL may name several nodes of one RabbitMQ cluster, separated by commas
 * (`amqp://u:p@10.0.0.1:5672,amqp://u:p@10.0.0.2:5672`). A client connects to the first and,
 * whenever an attempt to connect fails, tries the next one (round robin), so a client whose node
 * died reconnects to a live one.
 */
export function brokerUrls(list: string): string[] {
  const urls = list
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new Error('AMQP_URL names no broker');
  return urls;
}

/** amqplib's connect object for one URL: what amqplib itself reads from the URL string. */
export function connectObject(url: string): Options.Connect {
  const u = new URL(url);
  if (u.protocol !== 'amqp:' && u.protocol !== 'amqps:') throw new Error(`not an AMQP URL: ${u.protocol}`);
  const query = u.searchParams;
  const int = (name: string) => (query.has(name) ? Number.parseInt(query.get(name)!, 10) : undefined);
  const noCredentials = u.username === '' && u.password === '';
  return {
    protocol: u.protocol.slice(0, -1),
    hostname: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : undefined,
    username: noCredentials ? undefined : decodeURIComponent(u.username),
    password: noCredentials ? undefined : decodeURIComponent(u.password),
    // amqplib unescapes the vhost itself.
    vhost: u.pathname.slice(1) || undefined,
    heartbeat: int('heartbeat'),
    frameMax: int('frameMax'),
    channelMax: int('channelMax'),
    locale: query.get('locale') ?? undefined,
  };
}

/**
 * The address amqplib's recovering connection dials: one object it reads on every attempt, which
 * `next()` points at the following node. (amqplib takes one URL; mutating the object it was given
 * is how each reconnect attempt can dial another node.)
 */
export function rotatingAddress(list: string) {
  const urls = brokerUrls(list);
  let index = 0;
  // One URL: amqplib reads the string itself (the object is only for lists).
  const address: Options.Connect = urls.length > 1 ? connectObject(urls[0]) : {};
  return {
    address,
    /** The URL the next attempt dials. */
    current: () => urls[index],
    count: urls.length,
    next() {
      if (urls.length === 1) return;
      index = (index + 1) % urls.length;
      for (const key of Object.keys(address) as (keyof Options.Connect)[]) delete address[key];
      Object.assign(address, connectObject(urls[index]));
    },
  };
}
