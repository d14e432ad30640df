import { runService } from '@platform/service';
import { domainsService } from './service';

runService(domainsService);
