import type { DomainImportPlan } from '@platform/contracts';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { ListSection } from '../../../ui/list-section';
import { Pagination, Section } from '../../../ui/misc';
import { ROWS_PER_PAGE } from '../hooks';
import { Counts } from './counts';
import { ERROR_COLUMNS, PlanErrorRow } from './import-rows';

/** How many domains the import changes: what it creates, reactivates and deactivates. */
export const changesOf = (plan: DomainImportPlan) =>
  plan.counts.create + plan.counts.reactivate + plan.counts.deactivate;

interface Props {
  plan: DomainImportPlan;
  busy: boolean;
  error?: string;
  onConfirm: () => void;
  onBack: () => void;
}

/** Step 2: what the dry run found (counts, the rows that will not be imported and why), then confirm. */
export function ImportPlan({ plan, busy, error, onConfirm, onBack }: Props) {
  const [page, setPage] = useState(1);
  const invalid = plan.rows.filter((r) => r.errors.length > 0);
  const shown = invalid.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  const changes = changesOf(plan);
  return (
    <>
      <Section title={`Preview of ${plan.file_name}`}>
        <p className="muted">
          Nothing has been imported yet. {plan.counts.rows.toLocaleString('en-GB')} rows in the file; the import would:
        </p>
        <Counts
          label="What the import would do"
          counts={plan.counts}
          show={[
            ['create', 'to create'],
            ['reactivate', 'to reactivate'],
            ['deactivate', 'to deactivate'],
            ['unchanged', 'unchanged'],
            ['invalid', 'with errors'],
          ]}
        />
      </Section>
      <Section title="Rows with errors">
        <ListSection
          loading={false}
          loadingLabel="Loading rows…"
          empty={invalid.length === 0}
          emptyTitle="No row has an error"
          table={{ label: 'Rows with errors', columns: ERROR_COLUMNS }}
          before={<p className="muted">These rows are left out. Fix them in the file and preview it again.</p>}
          after={
            <Pagination
              page={page}
              hasPrev={page > 1}
              hasNext={page * ROWS_PER_PAGE < invalid.length}
              onPage={setPage}
            />
          }
        >
          {shown.map((row, i) => (
            <PlanErrorRow key={`${row.row}-${i}`} row={row} />
          ))}
        </ListSection>
      </Section>
      {error && <FormMessage tone="error">{error}</FormMessage>}
      <div className="form-actions">
        {changes > 0 ? (
          <Button variant="primary" busy={busy} busyLabel="Starting the import…" onClick={onConfirm}>
            {`Import ${changes.toLocaleString('en-GB')} ${changes === 1 ? 'domain' : 'domains'}`}
          </Button>
        ) : (
          <p className="muted">Nothing to import: no row would change a domain.</p>
        )}
        <Button onClick={onBack} disabled={busy}>
          Choose another file
        </Button>
      </div>
    </>
  );
}
