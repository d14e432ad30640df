import { expectAscendingKeys, expectUpgradesPreviousRelease } from '@platform/testing';
import { domainsService } from '../src/service';

describe('domains-svc migrations', () => {
  it('when its migrations are listed, then their keys ascend', () => {
    expectAscendingKeys(domainsService.migrations);
  });

  it("when the previous release built the database, then today's migrations, a later chassis migration and an earlier-dated service migration apply to it and leave the rest intact", async () => {
    await expectUpgradesPreviousRelease(domainsService);
  });
});
