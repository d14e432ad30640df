import { generateRecordSigningKeys } from '@platform/auth';
import { expectChassisService } from '@platform/testing';
import { consentService } from '../src/service';

describe('consent-svc on the chassis', () => {
  it('when started, then it migrates its schema for its own role, answers live, ready and metrics, and unknown paths get the 404 envelope', () =>
    expectChassisService(consentService, { RECORD_SIGNING_KEYS: generateRecordSigningKeys() }));
});
