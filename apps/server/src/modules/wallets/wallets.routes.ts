import {
  generateAmountsRoute,
  generateWalletsRoute,
  importWalletsRoute,
  plural,
  walletBalancesRoute,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import type { WalletsService } from "./wallets.service.ts";

export const walletsRoutes =
  (wallets: WalletsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: generateWalletsRoute.method,
      url: generateWalletsRoute.path,
      schema: { body: generateWalletsRoute.body },
      config: { access: generateWalletsRoute.access },
      handler: async (request) => {
        const { walletCount, publicKey, ...range } = request.body;
        const result = await wallets.generate(
          requireUser(request).id,
          walletCount,
          range,
          publicKey,
        );
        return {
          success: true as const,
          message: `Generated ${plural(walletCount, "wallet")}`,
          ...result,
        };
      },
    });

    app.route({
      method: generateAmountsRoute.method,
      url: generateAmountsRoute.path,
      schema: { body: generateAmountsRoute.body },
      config: { access: generateAmountsRoute.access },
      handler: async (request) => {
        const { wallets: addresses, creatorBuy, delaySnipeAddress, ...range } = request.body;
        const { amounts, curve } = wallets.amounts(addresses, range, {
          creatorBuy,
          delaySnipeAddress,
        });
        return {
          success: true as const,
          message: "Amounts generated",
          bnbAmounts: amounts,
          curve,
        };
      },
    });

    app.route({
      method: walletBalancesRoute.method,
      url: walletBalancesRoute.path,
      schema: { body: walletBalancesRoute.body },
      config: { access: walletBalancesRoute.access },
      handler: async (request) => {
        const { balances, asOfBlock } = await wallets.balances(request.body.addresses);
        return { success: true as const, message: "Balances fetched", balances, asOfBlock };
      },
    });

    app.route({
      method: importWalletsRoute.method,
      url: importWalletsRoute.path,
      schema: { body: importWalletsRoute.body },
      config: { access: importWalletsRoute.access },
      handler: async (request) => {
        const imported = wallets.importKeys(request.body.privateKeys);
        return {
          success: true as const,
          message: `Imported ${plural(imported.length, "wallet")}`,
          wallets: imported,
        };
      },
    });
  };
