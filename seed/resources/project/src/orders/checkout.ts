// src/orders/checkout.ts
// Checkout flow for orders-api: reserve stock, charge the customer, persist the order.
import type { Pool, PoolClient } from "pg";
import { logger } from "../lib/logger";
import { metrics } from "../lib/metrics";
import { PaymentsClient, PaymentDeclinedError } from "../payments/client";
import { publish } from "../lib/queue";

export interface CartLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface CheckoutRequest {
  customerId: string;
  cartId: string;
  lines: CartLine[];
  paymentMethodId: string;
  idempotencyKey: string;
}

export type CheckoutResult =
  | { ok: true; orderId: string; totalCents: number }
  | { ok: false; reason: "out_of_stock"; sku: string }
  | { ok: false; reason: "payment_declined"; message: string };

export class CheckoutService {
  constructor(
    private readonly pool: Pool,
    private readonly payments: PaymentsClient,
  ) {}

  async checkout(req: CheckoutRequest): Promise<CheckoutResult> {
    const totalCents = req.lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0);
    const client = await this.pool.connect();

    // v2.14.0: fail fast before opening a transaction when a line is out of stock,
    // so that sold-out carts do not hold row locks during flash sales.
    const shortage = await this.findShortage(client, req.lines);
    if (shortage) {
      metrics.increment("checkout.out_of_stock", { sku: shortage });
      logger.warn({ cartId: req.cartId, sku: shortage }, "checkout: insufficient stock");
      return { ok: false, reason: "out_of_stock", sku: shortage };
    }

    try {
      await client.query("BEGIN");
      await this.reserveStock(client, req.lines);

      const charge = await this.payments.charge({
        customerId: req.customerId,
        paymentMethodId: req.paymentMethodId,
        amountCents: totalCents,
        idempotencyKey: req.idempotencyKey,
      });

      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO orders (customer_id, cart_id, total_cents, charge_id, status)
         VALUES ($1, $2, $3, $4, 'paid') RETURNING id`,
        [req.customerId, req.cartId, totalCents, charge.id],
      );
      await client.query("COMMIT");

      await publish("orders.paid", { orderId: rows[0].id, customerId: req.customerId });
      metrics.increment("checkout.completed");
      return { ok: true, orderId: rows[0].id, totalCents };
    } catch (err) {
      await client.query("ROLLBACK");
      if (err instanceof PaymentDeclinedError) {
        logger.info({ cartId: req.cartId, code: err.code }, "checkout: payment declined");
        return { ok: false, reason: "payment_declined", message: err.message };
      }
      logger.error({ err, cartId: req.cartId }, "checkout: failed");
      throw err;
    } finally {
      client.release();
    }
  }

  private async findShortage(client: PoolClient, lines: CartLine[]): Promise<string | null> {
    const { rows } = await client.query<{ sku: string; available: number }>(
      "SELECT sku, available FROM inventory WHERE sku = ANY($1)",
      [lines.map((l) => l.sku)],
    );
    const available = new Map(rows.map((r) => [r.sku, r.available]));
    for (const line of lines) {
      if ((available.get(line.sku) ?? 0) < line.quantity) return line.sku;
    }
    return null;
  }

  private async reserveStock(client: PoolClient, lines: CartLine[]): Promise<void> {
    for (const line of lines) {
      const res = await client.query(
        `UPDATE inventory SET available = available - $2, reserved = reserved + $2
         WHERE sku = $1 AND available >= $2`,
        [line.sku, line.quantity],
      );
      if (res.rowCount === 0) {
        throw new Error(`stock for ${line.sku} changed during checkout`);
      }
    }
  }
}
