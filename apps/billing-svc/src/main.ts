import { runService } from '@platform/service';
import { billingService } from './service';

runService(billingService);
