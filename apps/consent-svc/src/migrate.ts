// Applies this service's migrations as the DATABASE_URL user: node dist/apps/consent-svc/migrate.js
import { runMigrations } from '@platform/service';
import { consentService } from './service';

runMigrations(consentService);
