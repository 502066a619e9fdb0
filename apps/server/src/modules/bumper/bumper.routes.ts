import {
  bumperCostsRoute,
  bumperWalletsRoute,
  bumperWithdrawalText,
  generateBumperRoute,
  getBumperRoute,
  listBumpersRoute,
  startBumperRoute,
  stopBumperRoute,
  withdrawBumperRoute,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatEther } from "viem";
import { requireUser } from "../../lib/access.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { parseRequest } from "../../lib/parse-request.ts";
import { BUMPER_MESSAGES, type BumperService } from "./bumper.service.ts";

/** A malformed id is an id nobody owns: 404, as for another user's bumper. */
const idOf = (params: unknown): string => {
  const parsed = getBumperRoute.params.safeParse(params);
  if (!parsed.success) throw new NotFoundError("Bumper not found");
  return parsed.data.id;
};

export const bumperRoutes =
  (bumpers: BumperService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: generateBumperRoute.method,
      url: generateBumperRoute.path,
      schema: { body: generateBumperRoute.body },
      config: { access: generateBumperRoute.access },
      handler: async (request) => {
        const { bumper, existing } = await bumpers.generate(requireUser(request).id, request.body);
        return {
          success: true as const,
          bumper,
          existingBumper: existing,
          message: existing ? BUMPER_MESSAGES.existing : BUMPER_MESSAGES.generated,
        };
      },
    });

    app.route({
      method: listBumpersRoute.method,
      url: listBumpersRoute.path,
      config: { access: listBumpersRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await bumpers.list(
          requireUser(request).id,
          parseRequest(listBumpersRoute.query, request.query),
        )),
      }),
    });

    // Before /api/bumper/:id in the reader's eye; Fastify prefers the static path anyway.
    app.route({
      method: bumperCostsRoute.method,
      url: bumperCostsRoute.path,
      config: { access: bumperCostsRoute.access },
      handler: async () => ({ success: true as const, costs: await bumpers.costs() }),
    });

    app.route({
      method: getBumperRoute.method,
      url: getBumperRoute.path,
      config: { access: getBumperRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await bumpers.get(requireUser(request).id, idOf(request.params))),
      }),
    });

    app.route({
      method: startBumperRoute.method,
      url: startBumperRoute.path,
      config: { access: startBumperRoute.access },
      handler: async (request) => ({
        success: true as const,
        bumper: await bumpers.start(requireUser(request).id, idOf(request.params)),
        message: BUMPER_MESSAGES.started,
      }),
    });

    app.route({
      method: stopBumperRoute.method,
      url: stopBumperRoute.path,
      config: { access: stopBumperRoute.access },
      handler: async (request) => ({
        success: true as const,
        bumper: await bumpers.stop(requireUser(request).id, idOf(request.params)),
        message: BUMPER_MESSAGES.stopped,
      }),
    });

    app.route({
      method: bumperWalletsRoute.method,
      url: bumperWalletsRoute.path,
      config: { access: bumperWalletsRoute.access },
      handler: async (request) => ({
        success: true as const,
        wallets: await bumpers.wallets(requireUser(request).id, idOf(request.params)),
      }),
    });

    app.route({
      method: withdrawBumperRoute.method,
      url: withdrawBumperRoute.path,
      schema: { body: withdrawBumperRoute.body },
      config: { access: withdrawBumperRoute.access },
      handler: async (request) => {
        const { bumperId, receiverAddress } = request.body;
        const withdrawal = await bumpers.withdraw(
          requireUser(request).id,
          idOf({ id: bumperId }),
          receiverAddress,
        );
        const amount = formatEther(withdrawal.amount);
        const unsold = [...withdrawal.unsold].map(([wallet, reason]) => ({ wallet, reason }));
        return {
          success: true as const,
          amount,
          message: bumperWithdrawalText(
            `Successfully withdrew ${amount} BNB to ${receiverAddress.trim()}`,
            unsold,
          ),
          unsold,
        };
      },
    });
  };
