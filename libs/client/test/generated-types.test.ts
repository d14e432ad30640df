import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_TYPES, generateTypes } from '../scripts/generate';

const ROOT = path.resolve(__dirname, '../../..');

describe("the client's generated types", () => {
  it('when the route table is turned into OpenAPI types now, then they equal the checked-in file (else run npm run client:generate)', () => {
    const checkedIn = readFileSync(path.join(ROOT, GENERATED_TYPES), 'utf8');
    expect(checkedIn).toContain('"/portal/domains"');
    const fix = 'npm run client:generate';
    expect({ upToDate: generateTypes(ROOT) === checkedIn, fix }).toEqual({ upToDate: true, fix });
  });
});
