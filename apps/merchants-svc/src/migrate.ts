// Applies this service's migrations as the DATABASE_URL user: node dist/apps/merchants-svc/migrate.js
import { runMigrations } from '@platform/service';
import { merchantsService } from './service';

runMigrations(merchantsService);
