import { expectAscendingKeys, expectUpgradesPreviousRelease } from '@platform/testing';
import { GATEWAY_DEFINITION } from '../src/deps';

describe('gateway migrations', () => {
  it('when its migrations are listed, then their keys ascend', () => {
    expectAscendingKeys(GATEWAY_DEFINITION.migrations);
  });

  it("when the previous release built the database, then today's migrations and an earlier-dated migration apply to it and leave the rest intact", async () => {
    await expectUpgradesPreviousRelease(GATEWAY_DEFINITION);
  });
});
