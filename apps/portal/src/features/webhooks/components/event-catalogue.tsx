import { queryState } from '../../../api/query-state';
import { ListSection } from '../../../ui/list-section';
import { Section } from '../../../ui/misc';
import { useEventTypes } from '../hooks';

/** Every event an endpoint can receive, with its description, an example body and the body's JSON Schema. */
export function EventCatalogue() {
  const types = useEventTypes();
  const rows = types.data ?? [];
  return (
    <Section title="Event catalogue">
      <ListSection
        {...queryState(types)}
        loadingLabel="Loading the event catalogue…"
        empty={rows.length === 0}
        emptyTitle="No event types"
      >
        {rows.map((t) => (
          <details key={t.name}>
            <summary>
              <code>{t.name}</code> — {t.description}
            </summary>
            <h3 className="catalogue-heading">Example</h3>
            <pre aria-label={`Example of ${t.name}`}>{JSON.stringify(t.example, null, 2)}</pre>
            <h3 className="catalogue-heading">JSON Schema</h3>
            <pre aria-label={`JSON Schema of ${t.name}`}>{JSON.stringify(t.schema, null, 2)}</pre>
          </details>
        ))}
      </ListSection>
    </Section>
  );
}
