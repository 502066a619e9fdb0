import {
  cancelKeyPaymentRoute,
  keyPaymentStatusRoute,
  startKeyPaymentRoute,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { parseRequest } from "../../lib/parse-request.ts";
import { headerKey } from "../auth/header-key.ts";
import type { KeyPaymentService } from "./key-payment.service.ts";

/**
 * Buying an access key, without a key (public): starting a payment is limited per client
 * address (`startsPerHour`), the status poll (every 5 s from the dialog) to 60 a minute, cancels
 * to 30 an hour.
 */
export const keyPaymentRoutes =
  (keyPayments: KeyPaymentService, startsPerHour: number): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: startKeyPaymentRoute.method,
      url: startKeyPaymentRoute.path,
      schema: { body: startKeyPaymentRoute.body },
      config: {
        access: startKeyPaymentRoute.access,
        rateLimit: { max: startsPerHour, timeWindow: "1 hour" },
      },
      handler: async (request) => ({
        success: true as const,
        ...(await keyPayments.start(
          request.body.deviceId,
          request.body.referralCode,
          headerKey(request),
        )),
      }),
    });

    app.route({
      method: keyPaymentStatusRoute.method,
      url: keyPaymentStatusRoute.path,
      config: {
        access: keyPaymentStatusRoute.access,
        rateLimit: { max: 60, timeWindow: "1 minute" },
      },
      handler: async (request) => {
        const query = parseRequest(keyPaymentStatusRoute.query, request.query, ["paymentId"]);
        return {
          success: true as const,
          ...(await keyPayments.status(query.paymentId, query.deviceId)),
        };
      },
    });

    app.route({
      method: cancelKeyPaymentRoute.method,
      url: cancelKeyPaymentRoute.path,
      config: {
        access: cancelKeyPaymentRoute.access,
        rateLimit: { max: 30, timeWindow: "1 hour" },
      },
      handler: async (request) => {
        const body = parseRequest(cancelKeyPaymentRoute.body, request.body, ["paymentId"]);
        return {
          success: true as const,
          message: await keyPayments.cancel(body.paymentId, body.deviceId),
        };
      },
    });
  };
