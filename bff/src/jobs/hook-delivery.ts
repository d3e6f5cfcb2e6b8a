import { defineJob } from '../queue/define.ts';
import { deliverQueued, hookDeliveryTicket, prepareDeliveries, recordDeliveries } from '../services/webhooks/hook-delivery.ts';

/**
 * A webhook delivery (services/webhooks/hook-delivery.ts). The lease outlasts a delivery's
 * timeout twice over; a worker keeps several in flight, since a delivery mostly waits on its
 * receiver (the request itself is on the sender thread).
 */
export const hookDeliveryJob = defineJob({
  ...hookDeliveryTicket,
  leaseMs: (config) => 2 * config.hookTimeoutMs + 5_000,
  inFlightPerWorker: 8,
  prepare: (payloads, { db }) => prepareDeliveries(db, payloads),
  handler: deliverQueued,
  record: (trx, outcomes) => recordDeliveries(trx, outcomes.filter((o) => o !== undefined)).then(() => undefined),
});
