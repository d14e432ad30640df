import { startSmtpCatcher } from '@platform/launcher';
import { waitFor } from './wait';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received (headers and encoded body). */
  raw: string;
  subject: string;
  /** raw with quoted-printable soft breaks and escapes undone, for content assertions. */
  decoded: string;
}

export interface TestSmtpServer {
  url: string;
  messages: ReceivedMail[];
  waitForMessage(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** RFC 2047 encoded words (=?utf-8?Q?...?= / =?utf-8?B?...?=) in a header value. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(decodeQuotedPrintable(text.replace(/_/g, ' ')), 'latin1').toString('utf8'),
  );
}

function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = /^subject:[ \t]*(.*)$/im.exec(head);
  return line ? decodeHeader(line[1]).trim() : '';
}

/** A real SMTP server on an ephemeral port (the launcher's catcher) that keeps what it receives in memory. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const catcher = await startSmtpCatcher({
    onMessage: ({ from, to, raw }) => {
      messages.push({ from, to, raw, subject: subjectOf(raw), decoded: decodeQuotedPrintable(raw) });
    },
  });
  return {
    url: catcher.url,
    messages,
    waitForMessage: (predicate, timeoutMs = 10_000) => waitFor(() => messages.find(predicate), { timeoutMs, what: 'an e-mail' }),
    close: () => catcher.close(),
  };
}
