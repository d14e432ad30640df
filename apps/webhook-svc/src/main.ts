import { runService } from '@platform/service';
import { webhookService } from './service';

runService(webhookService);
