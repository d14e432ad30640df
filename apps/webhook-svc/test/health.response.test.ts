import { expectChassisService } from '@platform/testing';
import { webhookService } from '../src/service';

describe('webhook-svc on the chassis', () => {
  it('when started, then it migrates its schema for its own role, answers live, ready and metrics, and unknown paths get the 404 envelope', () =>
    expectChassisService(webhookService));
});
