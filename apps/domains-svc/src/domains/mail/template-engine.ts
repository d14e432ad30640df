import { load } from 'cheerio';
import { Liquid, type Template } from 'liquidjs';
import { EMAIL_TEMPLATE_VARIABLES, type EmailPreview, type EmailTemplateKind } from '@platform/contracts';
import type { TemplateText } from './default-templates';

/** The values one e-mail is rendered with: the only data a template ever sees. */
export type TemplateValues = Record<string, string>;

/**
 * A Liquid engine that reaches nothing but the values it is given: no file system (an empty
 * in-memory template map, and no include, render or layout tags), own properties only, unknown
 * variables and filters are errors, and rendering is bounded in time and memory. `raw` is gone so
 * no template can switch HTML escaping off.
 */
function sandboxedLiquid(escapeHtml: boolean) {
  const liquid = new Liquid({
    ...(escapeHtml ? { outputEscape: 'escape' as const } : {}),
    templates: {},
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    // An empty value ('' for an unknown first name) is false in {% if %}, as a partner expects.
    jsTruthy: true,
    // Real templates render in a few ms: these only stop a loop meant to hold the service (or a mail) up.
    renderLimit: 500,
    memoryLimit: 1_000_000,
  });
  delete liquid.filters.raw;
  for (const tag of ['include', 'render', 'layout', 'block']) delete liquid.tags[tag];
  return liquid;
}

const htmlLiquid = sandboxedLiquid(true);
const subjectLiquid = sandboxedLiquid(false);

interface Parsed {
  subject: Template[];
  body: Template[];
}

export interface TemplateIssue {
  path: string;
  message: string;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

function parse(template: TemplateText): { parsed?: Parsed; issues: TemplateIssue[] } {
  const issues: TemplateIssue[] = [];
  const attempt = (liquid: Liquid, text: string, path: string) => {
    try {
      return liquid.parse(text);
    } catch (err) {
      issues.push({ path, message: `is not a valid template: ${messageOf(err)}` });
      return undefined;
    }
  };
  const subject = attempt(subjectLiquid, template.subject, 'body.subject');
  const body = attempt(htmlLiquid, template.body, 'body.body');
  return subject && body ? { parsed: { subject, body }, issues } : { issues };
}

export const exampleValues = (kind: EmailTemplateKind): TemplateValues =>
  Object.fromEntries(EMAIL_TEMPLATE_VARIABLES[kind].map((v) => [v.name, v.example]));

/**
 * Why a partner's template cannot be saved (empty when it can): a syntax error, a variable the
 * kind does not declare (named, with the ones it does), or a failure to render the examples.
 */
export async function templateIssues(kind: EmailTemplateKind, template: TemplateText): Promise<TemplateIssue[]> {
  const { parsed, issues } = parse(template);
  if (!parsed) return issues;
  const known = EMAIL_TEMPLATE_VARIABLES[kind].map((v) => v.name);
  for (const [path, liquid, templates] of [
    ['body.subject', subjectLiquid, parsed.subject],
    ['body.body', htmlLiquid, parsed.body],
  ] as const) {
    const unknown = (await liquid.globalVariables(templates)).filter((name) => !known.includes(name));
    for (const name of new Set(unknown))
      issues.push({
        path,
        message: `uses the unknown variable "${name}"; ${kind} templates may use ${known.join(', ')}`,
      });
  }
  if (issues.length > 0) return issues;
  try {
    await renderParsed(parsed, exampleValues(kind));
  } catch (err) {
    issues.push({ path: 'body.body', message: `cannot be rendered: ${messageOf(err)}` });
  }
  return issues;
}

async function renderParsed(parsed: Parsed, values: TemplateValues): Promise<EmailPreview> {
  const subject = await subjectLiquid.render(parsed.subject, values);
  const html = await htmlLiquid.render(parsed.body, values);
  // One line, whatever a value held: a subject is a mail header.
  return { subject: subject.replace(/[\p{Cc}\u2028\u2029\s]+/gu, ' ').trim(), html, text: htmlToText(html) };
}

/** Renders a template with one e-mail's values; throws when it does not parse or render. */
export async function renderTemplate(template: TemplateText, values: TemplateValues): Promise<EmailPreview> {
  const { parsed, issues } = parse(template);
  if (!parsed) throw new Error(issues.map((i) => `${i.path} ${i.message}`).join('; '));
  return renderParsed(parsed, values);
}

const BLOCKS = new Set([
  'p',
  'div',
  'pre',
  'ul',
  'ol',
  'table',
  'tr',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'section',
  'header',
  'footer',
]);
const SKIPPED = new Set(['script', 'style', 'head', 'title']);

interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

/** The plain-text part of an e-mail, from its HTML: paragraphs as blank lines, list items as "- ", links with their address. */
export function htmlToText(html: string): string {
  const $ = load(html, null, false);
  let out = '';
  const walk = (nodes: Node[], pre: boolean) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        const text = pre ? (node.data ?? '') : (node.data ?? '').replace(/\s+/g, ' ');
        // Outside <pre>, a line starts at its first word.
        out += !pre && (out === '' || out.endsWith('\n')) ? text.trimStart() : text;
      }
      if (node.type !== 'tag' || !node.name || SKIPPED.has(node.name)) continue;
      const name = node.name;
      if (name === 'br') out += '\n';
      else if (name === 'li') out += '\n- ';
      else if (BLOCKS.has(name)) out += '\n\n';
      const start = out.length;
      walk(node.children ?? [], pre || name === 'pre');
      const href = node.attribs?.href;
      if (name === 'a' && href && out.slice(start).trim() !== href) out += ` (${href})`;
      if (BLOCKS.has(name)) out += '\n\n';
    }
  };
  walk($.root().toArray()[0].children as unknown as Node[], false);
  return out
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
