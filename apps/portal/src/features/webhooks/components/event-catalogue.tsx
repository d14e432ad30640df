import { queryState } from '../../../api/query-state';
import { ListSection } from '../../../ui/list-section';
import { Section } from '../../../ui/misc';
import { useEventTypes } from '../hooks';

/** Every event an endpoint can receive, with its description and an example body. */
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
            <pre aria-label={`Example of ${t.name}`}>{JSON.stringify(t.example, null, 2)}</pre>
          </details>
        ))}
      </ListSection>
    </Section>
  );
}
