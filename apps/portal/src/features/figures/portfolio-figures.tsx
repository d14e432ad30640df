import { useState } from 'react';
import { Section } from '../../ui/misc';
import { ConsentFiguresView, RangePicker } from './consent-figures';
import { DEFAULT_DAYS } from './figures';
import { usePortfolioFigures } from './hooks';

/** The dashboard's consent figures: every one of the partner's domains summed. */
export function PortfolioFigures() {
  const [days, setDays] = useState(DEFAULT_DAYS);
  const query = usePortfolioFigures(days);
  return (
    <Section title="Consent figures across your domains" actions={<RangePicker days={days} onDays={setDays} />}>
      <ConsentFiguresView query={query} days={days} what="all your domains" />
    </Section>
  );
}
