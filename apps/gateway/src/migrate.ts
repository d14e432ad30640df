// Applies the gateway's migrations as the DATABASE_URL user: node dist/apps/gateway/migrate.js
import { runMigrations } from '@platform/service';
import { GATEWAY_DEFINITION } from './deps';

runMigrations(GATEWAY_DEFINITION);
