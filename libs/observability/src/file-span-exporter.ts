import { appendFileSync } from 'node:fs';
import { ExportResultCode, hrTimeToMicroseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** One span as a line of the file exporter (OTEL_TRACES_EXPORTER=file:<path>). */
export interface SpanLine {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  links: { traceId: string; spanId: string }[];
  attributes: Record<string, unknown>;
  status: number;
  startUs: number;
  endUs: number;
}

/**
 * For system tests, whose services run as processes: each span as a JSON line appended to one
 * file (one write per export, so the processes' lines never interleave). Not for production.
 */
export class FileSpanExporter implements SpanExporter {
  constructor(private readonly path: string) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      appendFileSync(this.path, spans.map((s) => `${JSON.stringify(spanLine(s))}\n`).join(''));
      done({ code: ExportResultCode.SUCCESS });
    } catch (err) {
      done({ code: ExportResultCode.FAILED, error: err as Error });
    }
  }

  async shutdown(): Promise<void> {}
}

function spanLine(s: ReadableSpan): SpanLine {
  return {
    service: String(s.resource.attributes[ATTR_SERVICE_NAME]),
    name: s.name,
    kind: s.kind,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    ...(s.parentSpanContext ? { parentSpanId: s.parentSpanContext.spanId } : {}),
    links: s.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId })),
    attributes: { ...s.attributes },
    status: s.status.code,
    startUs: hrTimeToMicroseconds(s.startTime),
    endUs: hrTimeToMicroseconds(s.endTime),
  };
}
