import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { PERMISSIONS, type EventMessage, type Price, type PriceList, type Product } from '@platform/contracts';
import { connectAmqp, createPublisher } from '@platform/messaging';
import { createLogger } from '@platform/observability';
import {
  act,
  domainChanged,
  domainDeleted,
  domainState,
  startTestService,
  testInfra,
  type ApiResponse,
} from '@platform/testing';
import { merchantsService } from '../src/service';

const list = (id: number, code: string): PriceList => ({ id, code, type: 'PUBLIC' });
const priced = (id: number, priceList: PriceList): Price => ({
  id,
  frequency: 'MONTH',
  currency: { id: 'EUR', name: 'Euro' },
  price_amount: 10,
  price_list: priceList,
});
/** billing-svc's catalogue as these tests see it (billing-svc does not run here). */
export const TEST_CATALOGUE: Product[] = [
  { id: 1, code: 'FREE', name: 'Free', type: 'SUBSCRIPTION', features: [], prices: [priced(101, list(1, 'STANDARD'))] },
  {
    id: 2,
    code: 'PRO',
    name: 'Pro',
    type: 'SUBSCRIPTION',
    features: [],
    prices: [priced(201, list(2, 'EUR')), priced(202, list(3, 'EUR_STANDARD'))],
  },
];

export type MerchantsTest = Awaited<ReturnType<typeof startMerchants>>;

/** merchants-svc in-process, with a partner helper (gateway tokens) and the calls other services make (service tokens). */
export async function startMerchants() {
  const services = generateInternalKeyPair();
  const t = await startTestService(merchantsService, { SERVICE_JWT_PUBLIC_KEY: services.publicKey });
  t.service.context.catalogue.products = async () => TEST_CATALOGUE;
  const minter = new InternalTokenMinter(services.privateKey, 60, 'services');
  const logger = createLogger('merchants-test', 'silent');
  const amqp = await connectAmqp((await testInfra()).amqpUrl, logger);
  await amqp.ready();
  const publisher = createPublisher(amqp, logger);

  /** A new partner: `call` sends what the gateway would forward for its API key. */
  const partner = () => {
    const { id, token } = t.partner();
    return {
      id,
      call: (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse> =>
        act(t.url, method, path, { token, body, headers }),
    };
  };
  /** A call from another service (domains-svc) on a partner's behalf. */
  const asService = (partnerId: string, method: string, path: string, body?: unknown) =>
    act(t.url, method, path, {
      token: minter.mint(
        { partnerId, keyId: `svc-${partnerId}`, permissions: [...PERMISSIONS], requiredFields: [] },
        'merchants',
      ),
      body,
    });
  /** Publishes a whole envelope as domains-svc's outbox relay would (routing key = event name). */
  const publish = (message: EventMessage) =>
    publisher.publish(t.exchange, message.payload.event, Buffer.from(JSON.stringify(message)), {
      messageId: message.id,
    });

  return {
    t,
    db: t.service.runtime.db,
    partner,
    asService,
    publish,
    queue: `${t.exchange}.merchants-svc`,
    close: async () => {
      await publisher.close();
      await amqp.close();
      await t.close();
    },
  };
}

export { domainChanged, domainDeleted, domainState };
