// Applies domains-svc's migrations as the DATABASE_URL user: node dist/apps/domains-svc/migrate.js
import { runMigrations } from '@platform/service';
import { domainsService } from './service';

runMigrations(domainsService);
