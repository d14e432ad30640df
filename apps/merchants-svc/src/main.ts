import { runService } from '@platform/service';
import { merchantsService } from './service';

runService(merchantsService);
