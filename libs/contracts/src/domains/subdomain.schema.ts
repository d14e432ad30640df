import { z } from 'zod';

export const subdomainSchema = z
  .object({
    id: z.string(),
    hostname: z.string(),
    instance_domain_id: z.string(),
    domain_id: z.string(),
    instance_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Subdomain' });
export type Subdomain = z.infer<typeof subdomainSchema>;

/** A full hostname (`shop.example.com`) or a label (`shop`); both become the full hostname. */
export const subdomainBodySchema = z.object({
  subdomain: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(253)
    .meta({ description: 'Full hostname or label', example: 'shop' }),
});
export type SubdomainBody = z.output<typeof subdomainBodySchema>;

export const subdomainParamsSchema = z.object({
  domainId: z.string().min(1),
  subdomain: z.string().min(1).meta({ description: 'The hostname, the label or the subdomain id' }),
});

export const subdomainDeletedSchema = z.object({ deleted: z.boolean(), message: z.string() });
