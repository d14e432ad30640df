import { runService } from '@platform/service';
import { consentService } from './service';

runService(consentService);
