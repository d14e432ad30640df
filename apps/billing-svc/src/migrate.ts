// Applies this service's migrations as the DATABASE_URL user: node dist/apps/billing-svc/migrate.js
import { runMigrations } from '@platform/service';
import { billingService } from './service';

runMigrations(billingService);
