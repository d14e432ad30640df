import type { DomainImport } from '@platform/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { queryState } from '../../../api/query-state';
import { routes } from '../../../routes';
import { FormMessage } from '../../../ui/field';
import { ListSection } from '../../../ui/list-section';
import { Pagination, Section } from '../../../ui/misc';
import { ProgressBar } from '../../../ui/progress-bar';
import { isFinished, useImportProgress, useImportRows } from '../hooks';
import { Counts } from './counts';
import { RESULT_COLUMNS, ResultRow } from './import-rows';

/** The rows the job runs (those it skips, unchanged and invalid, are not waited for). */
const toRun = (i: DomainImport) => i.counts.pending + i.counts.done + i.counts.failed;
const ran = (i: DomainImport) => i.counts.done + i.counts.failed;

function Results({ done }: { done: DomainImport }) {
  const [page, setPage] = useState(1);
  const rows = useImportRows(done.id, page, true);
  const list = rows.data?.result ?? [];
  return (
    <>
      <Section title="Results">
        <Counts
          label="What the import did"
          counts={done.counts}
          show={[
            ['done', 'done'],
            ['failed', 'failed'],
            ['unchanged', 'unchanged'],
            ['invalid', 'left out (errors)'],
          ]}
        />
      </Section>
      <Section title="Rows">
        <ListSection
          {...queryState(rows)}
          loadingLabel="Loading the rows…"
          empty={list.length === 0}
          emptyTitle="The file had no rows"
          table={{ label: 'Imported rows', columns: RESULT_COLUMNS }}
          after={
            <Pagination
              page={page}
              hasPrev={!!rows.data?.meta.prev_page}
              hasNext={!!rows.data?.meta.next_page}
              onPage={setPage}
            />
          }
        >
          {list.map((row, i) => (
            <ResultRow key={`${row.row}-${row.domain}-${i}`} row={row} />
          ))}
        </ListSection>
      </Section>
    </>
  );
}

/** Step 3: the job's progress, polled until it has finished, then what it did row by row. */
export function ImportRun({ started, onAnother }: { started: DomainImport; onAnother: () => void }) {
  const progress = useImportProgress(started);
  const current = progress.data;
  const finished = isFinished(current);
  return (
    <>
      <Section title={finished ? `Imported ${current.file_name}` : `Importing ${current.file_name}`}>
        <ProgressBar
          label="Import progress"
          value={ran(current)}
          max={toRun(current)}
          text={
            finished
              ? `Finished: ${ran(current).toLocaleString('en-GB')} of ${toRun(current).toLocaleString('en-GB')} rows run.`
              : `${ran(current).toLocaleString('en-GB')} of ${toRun(current).toLocaleString('en-GB')} rows run…`
          }
        />
        {progress.isError && (
          <FormMessage tone="error">
            {errorMessage(progress.error)} The import goes on; this page asks again in a moment.
          </FormMessage>
        )}
      </Section>
      {finished && <Results done={current} />}
      <div className="form-actions">
        <Link className="btn btn-secondary" to={routes.domains.list()}>
          Back to domains
        </Link>
        {finished && (
          <button type="button" className="btn btn-secondary" onClick={onAnother}>
            Import another file
          </button>
        )}
      </div>
    </>
  );
}
