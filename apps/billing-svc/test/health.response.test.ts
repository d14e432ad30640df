import { createLogger } from '@platform/observability';
import { expectHealthyService } from '@platform/testing';
import { buildApp } from '../src/app';

describe('billing-svc health', () => {
  it('when probed, then it answers live and ready, and unknown paths get the 404 envelope', () =>
    expectHealthyService(buildApp(createLogger('test', 'silent'))));
});
