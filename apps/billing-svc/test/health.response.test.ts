import { expectChassisService } from '@platform/testing';
import { billingService } from '../src/service';

describe('billing-svc on the chassis', () => {
  it('when started, then it migrates its schema for its own role, answers live, ready and metrics, and unknown paths get the 404 envelope', () =>
    expectChassisService(billingService));
});
