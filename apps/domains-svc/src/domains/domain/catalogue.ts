import type { Product } from '@platform/contracts';
import { AppError } from '@platform/http';

/**
 * The product catalogue as domains-svc sees it: billing-svc owns it; this is the copy last fetched
 * from billing-svc (kept in the database, so creates and reads work while billing-svc is away).
 */
export class CatalogueView {
  private current: Product[] | undefined;

  constructor(
    private readonly source: {
      /** The stored copy. */
      load(): Promise<Product[] | undefined>;
      save(products: Product[]): Promise<void>;
      /** billing-svc's GET /portal/products. */
      fetch(): Promise<Product[]>;
    },
  ) {}

  /** The catalogue; 503 only when it was never fetched and billing-svc cannot be reached now. */
  async products(): Promise<readonly Product[]> {
    if (this.current) return this.current;
    this.current = await this.source.load();
    if (this.current) return this.current;
    await this.refresh().catch(() => {
      throw new AppError('SERVICE.UNAVAILABLE', 'The product catalogue is not available yet; retry later.');
    });
    return this.current!;
  }

  /** Fetches billing-svc's catalogue and keeps it (the refresh job, and the first use). */
  async refresh(): Promise<void> {
    const products = await this.source.fetch();
    await this.source.save(products);
    this.current = products;
  }
}
