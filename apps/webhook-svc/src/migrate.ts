// Applies this service's migrations as the DATABASE_URL user: node dist/apps/webhook-svc/migrate.js
import { runMigrations } from '@platform/service';
import { webhookService } from './service';

runMigrations(webhookService);
