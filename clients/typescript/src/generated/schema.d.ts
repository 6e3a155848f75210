export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Health check
     * @description Free: costs 0 credits.
     */
    get: operations['healthCheck'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness: started, not draining, store answering
     * @description Free: costs 0 credits.
     */
    get: operations['readinessCheck'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Wallet info
     * @description Costs 1 credit.
     */
    get: operations['tokenGet'];
    put?: never;
    /**
     * Create a token (a wallet with 100 credits)
     * @description Free: costs 0 credits.
     */
    post: operations['tokenCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/token/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Recent calls, newest first (free)
     * @description The contract: the newest n entries, optionally of one category. Beyond the contract: `status` and `path` filter further, and `cursor` (from the previous answer) pages on to older entries; a filtered call looks at no more than 5,000 entries, so a page may hold fewer than n entries while `cursor` is not null.
     *
     *     Free: costs 0 credits.
     */
    get: operations['logsList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/token/spend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Credits spent per hour or day and category, last 7 days at most (free; beyond the contract)
     * @description Sums of the call log per UTC hour or day and log category, for charts. Free, like GET /token/logs, and logged like it (as `token`). Calls counts every logged call, free ones included (credits 0).
     *
     *     Free: costs 0 credits.
     */
    get: operations['spendSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/token/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Low-balance notification settings
     * @description Costs 1 credit.
     */
    get: operations['settingsGet'];
    /**
     * Update low-balance notification settings (omitted fields keep their values, null clears)
     * @description Costs 1 credit.
     */
    put: operations['settingsUpdate'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/kv/{bucket}/{key}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a value
     * @description Costs 1 credit.
     */
    get: operations['kvGet'];
    put?: never;
    /**
     * Set a value
     * @description Costs 1 credit.
     */
    post: operations['kvSet'];
    /**
     * Delete a value
     * @description Costs 1 credit.
     */
    delete: operations['kvDelete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/kv/{bucket}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a bucket's keys
     * @description Beyond the contract. The bucket's live keys in byte order with their expiry and value size (UTF-8 bytes), `limit` a page (default 20): pass the answer's `cursor` back as `cursor` for the next page; it is null when none remain.
     *
     *     Costs 1 credit.
     */
    get: operations['kvList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/kv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the wallet's buckets
     * @description Beyond the contract. Buckets holding live keys, in byte order, with their live keys and the size of their values (UTF-8 bytes), `limit` a page (default 20), paged with `cursor` as kvList is. Counting is bounded: a page counts 10000 entries at most, each bucket's first 1000 or, above 10 buckets a page, its first 10000 ÷ limit (500 at the default 20); `capped` says a bucket holds more (its counts are then a lower bound). A page may hold fewer than `limit` buckets while its cursor is not null (buckets whose keys all expired are left out).
     *
     *     Costs 1 credit.
     */
    get: operations['kvBuckets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks
     * @description Costs 1 credit.
     */
    get: operations['webhookList'];
    put?: never;
    /**
     * Create a webhook: mailbox mode, or scheduled mode when `schedule` is given. The signing secret is shown only here.
     * @description Costs 1 credit.
     */
    post: operations['webhookCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook
     * @description Costs 1 credit.
     */
    get: operations['webhookGet'];
    /**
     * Replace a webhook wholesale (mode chosen by `schedule`; the mailbox address is kept while in mailbox mode)
     * @description Costs 1 credit.
     */
    put: operations['webhookReplace'];
    post?: never;
    /**
     * Delete a webhook
     * @description Costs 1 credit.
     */
    delete: operations['webhookDelete'];
    options?: never;
    head?: never;
    /**
     * Change only the given fields; `schedule: null` returns to mailbox mode; `rotateSecret: true` issues a new signing secret (the old one still signs beside it for 24 h)
     * @description Costs 1 credit.
     */
    patch: operations['webhookUpdate'];
    trace?: never;
  };
  '/webhook/{webhookId}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send the dummy payload of the webhook’s mode to its URL; a failed delivery is still a 200 with success false
     * @description Costs 1 credit.
     */
    post: operations['webhookTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A webhook’s deliveries of the last 7 days, newest first (free)
     * @description Free: costs 0 credits.
     */
    get: operations['webhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook/{webhookId}/deliveries/{deliveryId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One delivery: its attempts and the exact JSON body sent (free)
     * @description Free: costs 0 credits.
     */
    get: operations['webhookDelivery'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook/{webhookId}/deliveries/{deliveryId}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a recorded delivery again: same delivery id, fresh signature, a new attempt; costs what the delivery cost
     * @description Cost in credits: 1, 2 or 5: what the delivery cost (1 for a test, 2 for mail or a scheduled run, 5 for mail with attachments); 1 when refused.
     */
    post: operations['webhookRedeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/dns-lookup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Look up DNS records of up to 10 domains or IPs, with optional propagation check, reverse lookup, e-mail security enrichment and TLS certificate inspection
     * @description Cost in credits: 5, also for a client error; 0 for a 5xx answer.
     */
    post: operations['dnsLookup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/mail/attachments/{attachmentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an inbound e-mail attachment (signed link from a delivery payload, valid 1 hour)
     * @description Free: costs 0 credits.
     */
    get: operations['mailAttachmentGet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inbound/raw': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Inject a raw RFC 5322 message for a mailbox (relay ingestion; enabled by INBOUND_SECRET)
     * @description The body is the raw message (any content type, e.g. `message/rfc822`), at most 30 MiB. It is processed exactly as mail received over SMTP: charged 2 or 5 credits to the mailbox’s wallet, then delivered to its webhook. 402 means the wallet cannot pay: retry later.
     *
     *     Cost in credits: 2, or 5 with attachments, charged to the mailbox’s wallet.
     */
    post: operations['mailInject'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/url-to-metadata': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Metadata of a URL, with an optional AI summary
     * @description Fetches the URL (public addresses only, http or https, at most 10 redirects, 2 MiB, 10 s) and returns its SEO, technical, link, Open Graph, Twitter card, social, contact, media and structured-data groups; other content types get `document`. Failures answer `{"success": false, "error": "…"}`; 401 and 402 answer in plain text, as on every route.
     *
     *     Cost in credits: 55, or 800 with aiSummary short, medium or long; 1 for a malformed request or a 4xx answer, 0 for a 5xx answer.
     */
    post: operations['urlMetadata'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/myip': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Caller IP and geo metadata
     * @description The address is the connection's, or the X-Forwarded-For entry chosen by TRUST_PROXY when the connection comes from a trusted proxy. Geo fields come from the configured MaxMind-format database (GEOIP_DB; by default DB-IP IP-to-Country Lite, https://db-ip.com, CC BY 4.0).
     *
     *     Costs 1 credit.
     */
    get: operations['myIp'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/recharge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Recharge link (free)
     * @description A Stripe payment link for 1 or 3 million credits, as plain text, with the wallet hash as `client_reference_id`. Credits arrive when Stripe reports the payment. 501 `Recharge is not configured` when Stripe is not set up.
     *
     *     Free: costs 0 credits.
     */
    get: operations['rechargeLink'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/recharge/done': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Where Stripe sends the payer back
     * @description Free: costs 0 credits.
     */
    get: operations['rechargeDone'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/stripe/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stripe webhook (signed with STRIPE_WEBHOOK_SECRET)
     * @description Credits a wallet once per paid Checkout Session (`checkout.session.completed`, `checkout.session.async_payment_succeeded`).
     *
     *     Free: costs 0 credits.
     */
    post: operations['stripeWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/wallets/{hash}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a wallet (operator)
     * @description Free: costs 0 credits.
     */
    get: operations['walletGet'];
    put?: never;
    post?: never;
    /**
     * Delete a wallet and all its data (operator; beyond the contract)
     * @description Removes the wallet with its keys, webhooks, schedules, settings, log and delivery history; its token answers 401 from then on. Not logged in the wallet (its log goes with it).
     *
     *     Free: costs 0 credits.
     */
    delete: operations['walletDelete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/wallets/{hash}/credit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Credit a wallet (operator)
     * @description Free: costs 0 credits.
     */
    post: operations['walletCredit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/wallets/{hash}/debit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Debit a wallet (operator; beyond the contract)
     * @description Takes `amount` credits, all or nothing: a balance that does not cover it answers 409 and nothing changes.
     *
     *     Free: costs 0 credits.
     */
    post: operations['walletDebit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/wallets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List wallets, newest or highest first, a page at a time (operator; beyond the contract)
     * @description Free: costs 0 credits.
     */
    get: operations['walletList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/wallets/{hash}/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A wallet's log, newest first, a page at a time (operator; beyond the contract)
     * @description Free: costs 0 credits.
     */
    get: operations['walletLogs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Wallets, credits in circulation and credits spent per day (operator; beyond the contract)
     * @description Free: costs 0 credits.
     */
    get: operations['serviceStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /**
     * @description Credits this call cost (after any refund). On every answer of a metered operation but 401.
     * @example 1
     */
    XCost: number;
    /**
     * @description The wallet balance after this call. On every answer of a metered operation whose wallet balance is known (not 401).
     * @example 99
     */
    XBalance: number;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  healthCheck: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  readinessCheck: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  tokenGet: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "wallet": 99,
           *       "created": "2026-06-01T12:00:00.000Z",
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8"
           *     }
           */
          'application/json': {
            /** @description Remaining credits */
            wallet: number;
            /** Format: date-time */
            created: string;
            /** @description SHA-256 hex of the token */
            hash: string;
          };
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
    };
  };
  tokenCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "token": "new"
         *     }
         */
        'application/x-www-form-urlencoded': {
          /** @enum {string} */
          token: 'new';
        };
      };
    };
    responses: {
      /** @description The new token */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example coin_Vq3n8ZkXw1sQe7JtYb2LmR5pHc9GdAf4uTo6KyNi0Ws */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  logsList: {
    parameters: {
      query?: {
        /** @example 1 */
        n?: number;
        /**
         * @description Filter on the log endpoint category
         * @example kv
         */
        type?:
          | 'kv'
          | 'token'
          | 'settings'
          | 'webhook'
          | 'webhook-delivery'
          | 'url-to-metadata'
          | 'myip'
          | 'service'
          | 'manage';
        /** @description Beyond the contract: the previous answer's `cursor`, for the next (older) page */
        cursor?: string;
        /**
         * @description Beyond the contract: only entries of this status: a class (`2xx`, `3xx`, `4xx`, `5xx`) or an exact code
         * @example 2xx
         */
        status?: string;
        /** @description Beyond the contract: only entries whose path starts with this */
        path?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "logs": [
           *         {
           *           "id": "7fKq2XbLm9Rt4WvNc8Zp",
           *           "method": "GET",
           *           "path": "/kv/settings/theme",
           *           "endpoint": "kv",
           *           "status_code": 200,
           *           "response_time_ms": 2,
           *           "timestamp": "2026-06-01T12:00:00.000Z",
           *           "expiration": "2026-06-08T12:00:00.000Z",
           *           "cost": 1,
           *           "balance": 98
           *         }
           *       ],
           *       "n": 1,
           *       "cursor": "MTc4MDMxNTIwMDAwMC40Mg"
           *     }
           */
          'application/json': {
            logs: {
              id: string;
              method: string;
              /** @description Request path with query; the webhookId for webhook-delivery entries */
              path: string;
              /** @enum {string} */
              endpoint:
                | 'kv'
                | 'token'
                | 'settings'
                | 'webhook'
                | 'webhook-delivery'
                | 'url-to-metadata'
                | 'myip'
                | 'service'
                | 'manage';
              status_code: number;
              response_time_ms: number;
              error?: string;
              /** Format: date-time */
              timestamp: string;
              /** Format: date-time */
              expiration: string;
              cost: number;
              balance: number;
              /** @description webhook-delivery entries: the delivery (GET /webhook/{id}/deliveries/{deliveryId}) */
              deliveryId?: string;
              /** @description Beyond the contract: manage entries, the reason the operator gave for a credit or debit */
              reason?: string;
            }[];
            n: number;
            /** @description Beyond the contract: send as `cursor` for the next (older) page; null when no entry is left. A filtered page may hold fewer than n entries while the cursor is not null (each call looks at a bounded number of entries). */
            cursor: string | null;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  spendSummary: {
    parameters: {
      query?: {
        /**
         * @description How many days back (the log keeps 7)
         * @example 1
         */
        days?: number;
        /**
         * @description Sum per UTC hour or per UTC day
         * @example hour
         */
        by?: 'hour' | 'day';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "by": "hour",
           *       "from": "2026-06-01T13:00:00.000Z",
           *       "to": "2026-06-02T12:34:56.789Z",
           *       "series": [
           *         {
           *           "start": "2026-06-02T11:00:00.000Z",
           *           "endpoint": "kv",
           *           "credits": 42,
           *           "calls": 42
           *         },
           *         {
           *           "start": "2026-06-02T11:00:00.000Z",
           *           "endpoint": "token",
           *           "credits": 1,
           *           "calls": 3
           *         },
           *         {
           *           "start": "2026-06-02T12:00:00.000Z",
           *           "endpoint": "service",
           *           "credits": 10,
           *           "calls": 2
           *         }
           *       ]
           *     }
           */
          'application/json': {
            /** @enum {string} */
            by: 'hour' | 'day';
            /**
             * Format: date-time
             * @description Start of the first period covered
             */
            from: string;
            /**
             * Format: date-time
             * @description Now: the last period is the current one, so far
             */
            to: string;
            /** @description Periods and categories with at least one logged call, oldest first, then by category */
            series: {
              /** Format: date-time */
              start: string;
              /**
               * @description The log category
               * @enum {string}
               */
              endpoint:
                | 'kv'
                | 'token'
                | 'settings'
                | 'webhook'
                | 'webhook-delivery'
                | 'url-to-metadata'
                | 'myip'
                | 'service'
                | 'manage';
              /** @description Credits charged */
              credits: number;
              /** @description Calls logged, free ones included */
              calls: number;
            }[];
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  settingsGet: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "low_balance_threshold": 50,
           *       "low_balance_email": "ops@example.com"
           *     }
           */
          'application/json': {
            low_balance_threshold: number;
            low_balance_webhook?: {
              url: string;
              headers: {
                [key: string]: string;
              };
              format?: string;
              /** @description JSON template, at most 2048 bytes and 5 levels */
              template?: {
                [key: string]: unknown;
              };
              options?: {
                [key: string]: string;
              };
            };
            low_balance_email?: string;
          };
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
    };
  };
  settingsUpdate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "low_balance_threshold": 50,
         *       "low_balance_email": "ops@example.com",
         *       "low_balance_webhook": null
         *     }
         */
        'application/json': {
          low_balance_threshold?: number;
          low_balance_webhook?: {
            /** @description HTTPS callback URL */
            url: string;
            /** @description Custom headers (at most 20, values at most 1000 characters); values are read back as *** */
            headers?: {
              [key: string]: string;
            };
            /** @enum {string} */
            format?: 'slack' | 'discord' | 'teams' | 'telegram' | 'pagerduty' | 'custom' | '';
            /** @description JSON template, at most 2048 bytes and 5 levels */
            template?: {
              [key: string]: unknown;
            };
            options?: {
              [key: string]: string;
            };
          } | null;
          /** Format: email */
          low_balance_email?: string | null;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
    };
  };
  kvGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters; no control characters or /; no reserved- prefix, no --- suffix
         * @example settings
         */
        bucket: string;
        /**
         * @description 1 to 30 characters; no control characters or /
         * @example theme
         */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The stored value */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /** @example dark */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Key Not Found';
        };
      };
    };
  };
  kvSet: {
    parameters: {
      query?: {
        /**
         * @description Seconds to live, 0 to 2592000; 0 or absent mean 2592000 (30 days)
         * @example 3600
         */
        ttl?: string;
      };
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters; no control characters or /; no reserved- prefix, no --- suffix
         * @example settings
         */
        bucket: string;
        /**
         * @description 1 to 30 characters; no control characters or /
         * @example theme
         */
        key: string;
      };
      cookie?: never;
    };
    /** @description The value: the body as UTF-8 text (any content type), at most 1000 code points; may be empty. */
    requestBody: {
      content: {
        /** @example dark */
        'text/plain': string;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
    };
  };
  kvDelete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters; no control characters or /; no reserved- prefix, no --- suffix
         * @example settings
         */
        bucket: string;
        /**
         * @description 1 to 30 characters; no control characters or /
         * @example theme
         */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Key Not Found';
        };
      };
    };
  };
  kvList: {
    parameters: {
      query?: {
        /**
         * @description Only keys starting with this (at most 30 characters; no control characters or /)
         * @example th
         */
        prefix?: string;
        /** @description Opaque: the previous answer's `cursor`, for the next page */
        cursor?: string;
        /**
         * @description How many keys a page lists, 1 to 100
         * @example 2
         */
        limit?: number;
      };
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters; no control characters or /; no reserved- prefix, no --- suffix
         * @example settings
         */
        bucket: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "keys": [
           *         {
           *           "key": "theme",
           *           "expiresAt": "2026-07-01T12:00:00.000Z",
           *           "size": 4
           *         },
           *         {
           *           "key": "theme-accent",
           *           "expiresAt": "2026-07-01T12:00:00.000Z",
           *           "size": 7
           *         }
           *       ],
           *       "cursor": "theme-accent"
           *     }
           */
          'application/json': {
            keys: {
              key: string;
              /** Format: date-time */
              expiresAt: string;
              /** @description The value's length in UTF-8 bytes */
              size: number;
            }[];
            /** @description Pass it as `cursor` for the next page; null when none remain. Opaque. */
            cursor: string | null;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  kvBuckets: {
    parameters: {
      query?: {
        /** @description Only buckets starting with this (at most 30 characters; no control characters or /) */
        prefix?: string;
        /** @description Opaque: the previous answer's `cursor`, for the next page */
        cursor?: string;
        /**
         * @description How many buckets a page lists, 1 to 100
         * @example 2
         */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "buckets": [
           *         {
           *           "bucket": "sessions",
           *           "keys": 1000,
           *           "size": 48213,
           *           "capped": true
           *         },
           *         {
           *           "bucket": "settings",
           *           "keys": 3,
           *           "size": 18,
           *           "capped": false
           *         }
           *       ],
           *       "cursor": "settings"
           *     }
           */
          'application/json': {
            buckets: {
              bucket: string;
              /** @description Live keys (counted among the bucket's first entries: see `capped`) */
              keys: number;
              /** @description The live values' length in UTF-8 bytes (of the same entries) */
              size: number;
              /** @description The bucket holds more entries than the page counts of each (1000, or 10000 ÷ limit when less): keys and size count only its first ones (in byte order), a lower bound */
              capped: boolean;
            }[];
            /** @description Pass it as `cursor` for the next page; null when none remain. Opaque. */
            cursor: string | null;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  webhookList: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhooks": [
           *         {
           *           "webhookId": "orders",
           *           "webhook": "https://hooks.example.com/orders",
           *           "headers": {
           *             "authorization": "***"
           *           },
           *           "format": "slack",
           *           "includeAttachments": true,
           *           "email": "r_7f3k9q2m@mail.example.com",
           *           "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8"
           *         }
           *       ]
           *     }
           */
          'application/json': {
            webhooks: {
              webhookId: string;
              /** @description The callback URL */
              webhook: string;
              /** @description Header names as saved, values *** */
              headers: {
                [key: string]: string;
              };
              /** @description Mailbox mode, when set */
              format?: string;
              /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
              template?: {
                [key: string]: unknown;
              };
              /** @description Mailbox mode; sensitive values *** */
              options?: {
                [key: string]: string;
              };
              includeAttachments?: boolean;
              /** @description Mailbox mode: the address whose mail is delivered */
              email?: string;
              schedule?: {
                cron: string;
                timezone: string;
                active: boolean;
                /**
                 * Format: date-time
                 * @description Absent while the schedule is inactive
                 */
                nextRunAt?: string;
                /** Format: date-time */
                lastRunAt?: string;
                /** @enum {string} */
                lastStatus?: 'success' | 'failure';
                lastError?: string;
              };
              /** @description Present when retries are on */
              retry?: {
                attempts: number;
                /** @enum {string} */
                backoff: 'exponential';
              };
              /** @description SHA-256 hash of the token; always present */
              hash?: string;
              /** @description Standard Webhooks secret (whsec_…); only on create and on rotateSecret */
              signingSecret?: string;
            }[];
          };
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  webhookCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "webhookId": "orders",
         *       "url": "https://hooks.example.com/orders",
         *       "headers": {
         *         "authorization": "Bearer s3cret"
         *       },
         *       "format": "slack"
         *     }
         */
        'application/json': {
          /** @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved */
          webhookId?: string;
          /** @description HTTPS callback URL on a public host */
          url: string;
          /** @description Custom headers sent with each callback (at most 20, values at most 1000 characters); values are read back as *** */
          headers?: {
            [key: string]: string;
          };
          /**
           * @description Payload format (mailbox mode only); "" means none: the raw inbound email payload
           * @enum {string}
           */
          format?: '' | 'slack' | 'discord' | 'teams' | 'telegram' | 'pagerduty' | 'custom';
          /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
          template?: {
            [key: string]: unknown;
          };
          /** @description Format options (mailbox mode only): at most 10 keys, string values of at most 500 characters; chat_id for telegram, routing_key for pagerduty */
          options?: {
            [key: string]: string;
          };
          /** @description Mailbox mode only; default true */
          includeAttachments?: boolean;
          /** @description Scheduled mode: first run within 30 days, at most 31 days between runs */
          schedule?: {
            /** @description 5-field cron: minute hour day month weekday */
            cron: string;
            /** @description IANA time zone the cron is evaluated in */
            timezone: string;
            /** @description Default true */
            active?: boolean;
          };
          /** @description Delivery retries; absent: one attempt (the contract) */
          retry?: {
            /** @description Attempts after a failed first one (network error, timeout, 5xx, 408, 429); 0: none */
            attempts: number;
            /**
             * @description From 30 s, doubling, at most 10 h, ±20 % jitter
             * @enum {string}
             */
            backoff?: 'exponential';
          };
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhookId": "orders",
           *       "webhook": "https://hooks.example.com/orders",
           *       "headers": {
           *         "authorization": "***"
           *       },
           *       "format": "slack",
           *       "includeAttachments": true,
           *       "email": "r_7f3k9q2m@mail.example.com",
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8",
           *       "signingSecret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
           *     }
           */
          'application/json': {
            webhookId: string;
            /** @description The callback URL */
            webhook: string;
            /** @description Header names as saved, values *** */
            headers: {
              [key: string]: string;
            };
            /** @description Mailbox mode, when set */
            format?: string;
            /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
            template?: {
              [key: string]: unknown;
            };
            /** @description Mailbox mode; sensitive values *** */
            options?: {
              [key: string]: string;
            };
            includeAttachments?: boolean;
            /** @description Mailbox mode: the address whose mail is delivered */
            email?: string;
            schedule?: {
              cron: string;
              timezone: string;
              active: boolean;
              /**
               * Format: date-time
               * @description Absent while the schedule is inactive
               */
              nextRunAt?: string;
              /** Format: date-time */
              lastRunAt?: string;
              /** @enum {string} */
              lastStatus?: 'success' | 'failure';
              lastError?: string;
            };
            /** @description Present when retries are on */
            retry?: {
              attempts: number;
              /** @enum {string} */
              backoff: 'exponential';
            };
            /** @description SHA-256 hash of the token; always present */
            hash?: string;
            /** @description Standard Webhooks secret (whsec_…); only on create and on rotateSecret */
            signingSecret?: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook ID already exists';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
    };
  };
  webhookGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhookId": "orders",
           *       "webhook": "https://hooks.example.com/orders",
           *       "headers": {
           *         "authorization": "***"
           *       },
           *       "format": "slack",
           *       "includeAttachments": true,
           *       "email": "r_7f3k9q2m@mail.example.com",
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8"
           *     }
           */
          'application/json': {
            webhookId: string;
            /** @description The callback URL */
            webhook: string;
            /** @description Header names as saved, values *** */
            headers: {
              [key: string]: string;
            };
            /** @description Mailbox mode, when set */
            format?: string;
            /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
            template?: {
              [key: string]: unknown;
            };
            /** @description Mailbox mode; sensitive values *** */
            options?: {
              [key: string]: string;
            };
            includeAttachments?: boolean;
            /** @description Mailbox mode: the address whose mail is delivered */
            email?: string;
            schedule?: {
              cron: string;
              timezone: string;
              active: boolean;
              /**
               * Format: date-time
               * @description Absent while the schedule is inactive
               */
              nextRunAt?: string;
              /** Format: date-time */
              lastRunAt?: string;
              /** @enum {string} */
              lastStatus?: 'success' | 'failure';
              lastError?: string;
            };
            /** @description Present when retries are on */
            retry?: {
              attempts: number;
              /** @enum {string} */
              backoff: 'exponential';
            };
            /** @description SHA-256 hash of the token; always present */
            hash?: string;
            /** @description Standard Webhooks secret (whsec_…); only on create and on rotateSecret */
            signingSecret?: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
    };
  };
  webhookReplace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "url": "https://hooks.example.com/orders-v2",
         *       "format": "discord"
         *     }
         */
        'application/json': {
          /** @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved */
          webhookId?: string;
          /** @description HTTPS callback URL on a public host */
          url: string;
          /** @description Custom headers sent with each callback (at most 20, values at most 1000 characters); values are read back as *** */
          headers?: {
            [key: string]: string;
          };
          /**
           * @description Payload format (mailbox mode only); "" means none: the raw inbound email payload
           * @enum {string}
           */
          format?: '' | 'slack' | 'discord' | 'teams' | 'telegram' | 'pagerduty' | 'custom';
          /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
          template?: {
            [key: string]: unknown;
          };
          /** @description Format options (mailbox mode only): at most 10 keys, string values of at most 500 characters; chat_id for telegram, routing_key for pagerduty */
          options?: {
            [key: string]: string;
          };
          /** @description Mailbox mode only; default true */
          includeAttachments?: boolean;
          /** @description Scheduled mode: first run within 30 days, at most 31 days between runs */
          schedule?: {
            /** @description 5-field cron: minute hour day month weekday */
            cron: string;
            /** @description IANA time zone the cron is evaluated in */
            timezone: string;
            /** @description Default true */
            active?: boolean;
          };
          /** @description Delivery retries; absent: one attempt (the contract) */
          retry?: {
            /** @description Attempts after a failed first one (network error, timeout, 5xx, 408, 429); 0: none */
            attempts: number;
            /**
             * @description From 30 s, doubling, at most 10 h, ±20 % jitter
             * @enum {string}
             */
            backoff?: 'exponential';
          };
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhookId": "orders",
           *       "webhook": "https://hooks.example.com/orders-v2",
           *       "headers": {
           *         "authorization": "***"
           *       },
           *       "format": "discord",
           *       "includeAttachments": true,
           *       "email": "r_7f3k9q2m@mail.example.com",
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8"
           *     }
           */
          'application/json': {
            webhookId: string;
            /** @description The callback URL */
            webhook: string;
            /** @description Header names as saved, values *** */
            headers: {
              [key: string]: string;
            };
            /** @description Mailbox mode, when set */
            format?: string;
            /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
            template?: {
              [key: string]: unknown;
            };
            /** @description Mailbox mode; sensitive values *** */
            options?: {
              [key: string]: string;
            };
            includeAttachments?: boolean;
            /** @description Mailbox mode: the address whose mail is delivered */
            email?: string;
            schedule?: {
              cron: string;
              timezone: string;
              active: boolean;
              /**
               * Format: date-time
               * @description Absent while the schedule is inactive
               */
              nextRunAt?: string;
              /** Format: date-time */
              lastRunAt?: string;
              /** @enum {string} */
              lastStatus?: 'success' | 'failure';
              lastError?: string;
            };
            /** @description Present when retries are on */
            retry?: {
              attempts: number;
              /** @enum {string} */
              backoff: 'exponential';
            };
            /** @description SHA-256 hash of the token; always present */
            hash?: string;
            /** @description Standard Webhooks secret (whsec_…); only on create and on rotateSecret */
            signingSecret?: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
    };
  };
  webhookDelete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
    };
  };
  webhookUpdate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "rotateSecret": true
         *     }
         */
        'application/json': {
          /** @description HTTPS callback URL on a public host */
          url?: string;
          /** @description Custom headers sent with each callback (at most 20, values at most 1000 characters); values are read back as *** */
          headers?: {
            [key: string]: string;
          } | null;
          /**
           * @description Payload format (mailbox mode only); "" means none: the raw inbound email payload
           * @enum {string}
           */
          format?: '' | 'slack' | 'discord' | 'teams' | 'telegram' | 'pagerduty' | 'custom';
          /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
          template?: {
            [key: string]: unknown;
          } | null;
          /** @description Format options (mailbox mode only): at most 10 keys, string values of at most 500 characters; chat_id for telegram, routing_key for pagerduty */
          options?: {
            [key: string]: string;
          } | null;
          /** @description Mailbox mode only; default true */
          includeAttachments?: boolean;
          schedule?: {
            /** @description 5-field cron: minute hour day month weekday */
            cron?: string;
            /** @description IANA time zone the cron is evaluated in */
            timezone?: string;
            /** @description Default true */
            active?: boolean;
          } | null;
          /** @description Delivery retries; absent: one attempt (the contract) */
          retry?: {
            /** @description Attempts after a failed first one (network error, timeout, 5xx, 408, 429); 0: none */
            attempts: number;
            /**
             * @description From 30 s, doubling, at most 10 h, ±20 % jitter
             * @enum {string}
             */
            backoff?: 'exponential';
          } | null;
          /** @description true: issue a new signing secret, returned once in this response */
          rotateSecret?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhookId": "orders",
           *       "webhook": "https://hooks.example.com/orders",
           *       "headers": {
           *         "authorization": "***"
           *       },
           *       "format": "slack",
           *       "includeAttachments": true,
           *       "email": "r_7f3k9q2m@mail.example.com",
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8",
           *       "signingSecret": "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"
           *     }
           */
          'application/json': {
            webhookId: string;
            /** @description The callback URL */
            webhook: string;
            /** @description Header names as saved, values *** */
            headers: {
              [key: string]: string;
            };
            /** @description Mailbox mode, when set */
            format?: string;
            /** @description JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels */
            template?: {
              [key: string]: unknown;
            };
            /** @description Mailbox mode; sensitive values *** */
            options?: {
              [key: string]: string;
            };
            includeAttachments?: boolean;
            /** @description Mailbox mode: the address whose mail is delivered */
            email?: string;
            schedule?: {
              cron: string;
              timezone: string;
              active: boolean;
              /**
               * Format: date-time
               * @description Absent while the schedule is inactive
               */
              nextRunAt?: string;
              /** Format: date-time */
              lastRunAt?: string;
              /** @enum {string} */
              lastStatus?: 'success' | 'failure';
              lastError?: string;
            };
            /** @description Present when retries are on */
            retry?: {
              attempts: number;
              /** @enum {string} */
              backoff: 'exponential';
            };
            /** @description SHA-256 hash of the token; always present */
            hash?: string;
            /** @description Standard Webhooks secret (whsec_…); only on create and on rotateSecret */
            signingSecret?: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
    };
  };
  webhookTest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": true,
           *       "message": "test webhook delivered"
           *     }
           */
          'application/json': {
            success: boolean;
            /** @description "test webhook delivered" or "webhook call failed: <cause>" */
            message: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  webhookDeliveries: {
    parameters: {
      query?: {
        /** @example 20 */
        n?: number;
        /**
         * @description Only deliveries in this state
         * @example success
         */
        status?: 'pending' | 'success' | 'failure';
      };
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "deliveries": [
           *         {
           *           "id": "msg_2Zq8Hc4Lr1Xy7Wb3",
           *           "trigger": "email",
           *           "createdAt": "2026-06-01T12:00:00.000Z",
           *           "status": "success",
           *           "attempts": 1,
           *           "lastAttemptAt": "2026-06-01T12:00:00.000Z",
           *           "nextAttemptAt": null,
           *           "lastStatusCode": 200,
           *           "lastError": null
           *         }
           *       ],
           *       "n": 1
           *     }
           */
          'application/json': {
            deliveries: {
              /** @description The delivery id: the `webhook-id` header of every attempt */
              id: string;
              /** @enum {string} */
              trigger: 'test' | 'email' | 'schedule' | 'low_balance' | 'redelivery';
              /** Format: date-time */
              createdAt: string;
              /** @enum {string} */
              status: 'pending' | 'success' | 'failure';
              attempts: number;
              /** Format: date-time */
              lastAttemptAt: string | null;
              /** Format: date-time */
              nextAttemptAt: string | null;
              /** @description The receiver’s status; null when no answer came */
              lastStatusCode: number | null;
              lastError: string | null;
            }[];
            n: number;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  webhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
        /**
         * @description A delivery id, `msg_…`
         * @example msg_2Zq8Hc4Lr1Xy7Wb3
         */
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "msg_2Zq8Hc4Lr1Xy7Wb3",
           *       "trigger": "email",
           *       "createdAt": "2026-06-01T12:00:00.000Z",
           *       "status": "success",
           *       "attempts": [
           *         {
           *           "attempt": 1,
           *           "trigger": "email",
           *           "at": "2026-06-01T12:00:00.000Z",
           *           "statusCode": 200,
           *           "ms": 142,
           *           "error": null,
           *           "responseBody": "ok"
           *         }
           *       ],
           *       "lastAttemptAt": "2026-06-01T12:00:00.000Z",
           *       "nextAttemptAt": null,
           *       "lastStatusCode": 200,
           *       "lastError": null,
           *       "body": "{\"type\":\"email.received\",\"data\":{\"subject\":\"Hello\"}}"
           *     }
           */
          'application/json': {
            /** @description The delivery id: the `webhook-id` header of every attempt */
            id: string;
            /** @enum {string} */
            trigger: 'test' | 'email' | 'schedule' | 'low_balance' | 'redelivery';
            /** Format: date-time */
            createdAt: string;
            /** @enum {string} */
            status: 'pending' | 'success' | 'failure';
            attempts: {
              attempt: number;
              /**
               * @description The delivery’s trigger (first attempt and retries), or `redelivery`
               * @enum {string}
               */
              trigger: 'test' | 'email' | 'schedule' | 'low_balance' | 'redelivery';
              /** Format: date-time */
              at: string;
              statusCode: number | null;
              ms: number;
              error: string | null;
              /** @description The first 1 KiB of the receiver’s answer */
              responseBody: string | null;
            }[];
            /** Format: date-time */
            lastAttemptAt: string | null;
            /** Format: date-time */
            nextAttemptAt: string | null;
            /** @description The receiver’s status; null when no answer came */
            lastStatusCode: number | null;
            lastError: string | null;
            /** @description The exact JSON text sent, as a string (parse it for the payload); null when it was over 1 MiB */
            body: string | null;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found' | 'Delivery not found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  webhookRedeliver: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description 1 to 30 characters from A-Z, a-z, 0-9, _ and -; `call` is reserved
         * @example orders
         */
        webhookId: string;
        /**
         * @description A delivery id, `msg_…`
         * @example msg_2Zq8Hc4Lr1Xy7Wb3
         */
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": true,
           *       "attempt": 2,
           *       "statusCode": 200,
           *       "message": "webhook delivered"
           *     }
           */
          'application/json': {
            success: boolean;
            /** @description The attempt’s number in the delivery’s history */
            attempt: number;
            /** @description The receiver’s status; null when no answer came */
            statusCode: number | null;
            /** @description "webhook delivered" or "webhook call failed: <cause>" */
            message: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found' | 'Delivery not found';
        };
      };
      /** @description Gone: no longer available */
      410: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Delivery expired';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  dnsLookup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "domains": [
         *         "example.com"
         *       ],
         *       "recordTypes": [
         *         "A",
         *         "MX"
         *       ],
         *       "enableEnrichment": false,
         *       "enableSslInspection": false,
         *       "performReverseLookup": false
         *     }
         */
        'application/json': {
          /** @description 1 to 10 domain names (international names allowed) or IP addresses (looked up as PTR); duplicates are looked up once */
          domains: string[];
          /** @description Default A, AAAA, MX, TXT, NS, CNAME */
          recordTypes?: ('A' | 'AAAA' | 'MX' | 'CNAME' | 'TXT' | 'NS' | 'PTR' | 'SOA' | 'CAA' | 'SRV')[];
          /**
           * @description Ask several public resolvers and compare their answers
           * @default false
           */
          checkPropagation?: boolean;
          /** @description Replaces the default resolvers; public addresses on port 53 only (private, loopback, link-local addresses and other ports are refused) */
          propagationServers?: string[];
          /**
           * @description PTR lookups for returned addresses
           * @default true
           */
          performReverseLookup?: boolean;
          /**
           * @description MX provider, SPF, DMARC, DKIM and an e-mail security score
           * @default true
           */
          enableEnrichment?: boolean;
          /**
           * @description TLS certificate of port 443
           * @default true
           */
          enableSslInspection?: boolean;
          /**
           * @description Milliseconds per query try (the whole request ends after 30 s)
           * @default 5000
           */
          timeout?: number;
          /**
           * @description Tries after the first one
           * @default 3
           */
          maxRetries?: number;
          /**
           * @description Milliseconds between tries
           * @default 1000
           */
          retryDelay?: number;
          /**
           * @description Add queryTime and totalRecords
           * @default false
           */
          includeMetadata?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "summary": {
           *         "totalDomains": 1,
           *         "successfulLookups": 1,
           *         "failedLookups": 0,
           *         "recordTypes": [
           *           "A",
           *           "MX"
           *         ],
           *         "propagationCheckEnabled": false
           *       },
           *       "results": [
           *         {
           *           "domain": "example.com",
           *           "lookupResult": {
           *             "domain": "example.com",
           *             "timestamp": "2026-06-01T12:00:00.000Z",
           *             "records": {
           *               "A": [
           *                 {
           *                   "type": "A",
           *                   "address": "93.184.215.14",
           *                   "ttl": 3600
           *                 }
           *               ],
           *               "MX": [
           *                 {
           *                   "type": "MX",
           *                   "exchange": "mail.example.com",
           *                   "priority": 10,
           *                   "ttl": 3600
           *                 }
           *               ]
           *             }
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': {
            summary: {
              totalDomains: number;
              successfulLookups: number;
              failedLookups: number;
              recordTypes: ('A' | 'AAAA' | 'MX' | 'CNAME' | 'TXT' | 'NS' | 'PTR' | 'SOA' | 'CAA' | 'SRV')[];
              propagationCheckEnabled: boolean;
            };
            results: {
              /** @description The domain or IP as requested */
              domain: string;
              lookupResult: {
                /** @description The name queried (punycode), or the IP address */
                domain: string;
                /** Format: date-time */
                timestamp: string;
                /** @description Records grouped by type; a type with no records is absent */
                records: {
                  A?: {
                    /** @enum {string} */
                    type: 'A';
                    address: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  AAAA?: {
                    /** @enum {string} */
                    type: 'AAAA';
                    address: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  MX?: {
                    /** @enum {string} */
                    type: 'MX';
                    exchange: string;
                    priority: number;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  CNAME?: {
                    /** @enum {string} */
                    type: 'CNAME';
                    value: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  TXT?: {
                    /** @enum {string} */
                    type: 'TXT';
                    entries: string[];
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  NS?: {
                    /** @enum {string} */
                    type: 'NS';
                    value: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  PTR?: {
                    /** @enum {string} */
                    type: 'PTR';
                    value: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  SOA?: {
                    /** @enum {string} */
                    type: 'SOA';
                    nsname: string;
                    hostmaster: string;
                    serial: number;
                    refresh: number;
                    retry: number;
                    expire: number;
                    minttl: number;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  CAA?: {
                    /** @enum {string} */
                    type: 'CAA';
                    flags: number;
                    tag: string;
                    value: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                  SRV?: {
                    /** @enum {string} */
                    type: 'SRV';
                    priority: number;
                    weight: number;
                    port: number;
                    target: string;
                    /** @description Seconds, as the answering server gave it */
                    ttl: number;
                  }[];
                };
                /** @description Per record type, why the query failed: NXDOMAIN, SERVFAIL, REFUSED, TIMEOUT (also at the 30 s request deadline), UNREACHABLE, PACKET_LIMIT, NON_PUBLIC_ADDRESS, … */
                errors?: {
                  [key: string]: string;
                };
                reverseLookup?: {
                  hostnames: string[];
                  /** @description Milliseconds spent in PTR lookups */
                  responseTime: number;
                };
                /** @description Mail provider recognised from the MX hosts */
                mx_provider?: string | null;
                spf_valid?: boolean;
                spf_strict?: boolean;
                /** @enum {string} */
                dmarc_policy?: 'none' | 'quarantine' | 'reject';
                has_dkim?: boolean;
                email_security_score?: number;
                /** Format: date-time */
                ssl_certificate_expires_at?: string;
                ssl_days_until_expiry?: number;
                ssl_issuer?: string;
                ssl_subject_alt_names?: string[];
                /** @description The chain reached a trusted root and covers the name */
                ssl_chain_valid?: boolean;
                /** @description Why no certificate could be read */
                ssl_error?: string;
                warnings?: string[];
                recommendations?: string[];
                /** @description Detail behind the enrichment fields: mx, spf, dmarc, dkim; dmarc.organizationalDomain names the domain whose record applies when it is inherited (RFC 7489 6.6.3) */
                enrichment?: {
                  [key: string]: unknown;
                };
                metadata?: {
                  queryTime: number;
                  totalRecords: number;
                };
              };
              propagationResults?: {
                domain: string;
                /** @enum {string} */
                recordType: 'A' | 'AAAA' | 'MX' | 'CNAME' | 'TXT' | 'NS' | 'PTR' | 'SOA' | 'CAA' | 'SRV';
                /** Format: date-time */
                timestamp: string;
                /** @description Keyed by server */
                servers: {
                  [key: string]: {
                    records: {
                      [key: string]: unknown;
                    }[];
                    /** @description Milliseconds */
                    responseTime: number;
                    error?: string;
                    /** @description Operator and home of the resolver; custom for servers the caller chose */
                    location: string;
                    /** @description Same records as the main lookup (TTLs ignored) */
                    matches: boolean;
                  };
                };
                /** @description Every server matches the main lookup */
                isPropagated: boolean;
                consistencyPercentage: number;
              }[];
            }[];
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
      /** @description Service unavailable: a short cause */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  mailAttachmentGet: {
    parameters: {
      query?: {
        /** @example 1780315200 */
        expires?: string;
        /** @example k3Jd9sQ2vX7mN1pL4tR8wY6zB0cF5hG2 */
        signature?: string;
      };
      header?: never;
      path: {
        /** @example att_01JX4Q8Z6T3N5R7V */
        attachmentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The attachment bytes */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example %PDF-1.7 … */
          'application/octet-stream': string;
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Not Found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  mailInject: {
    parameters: {
      query: {
        /**
         * @description The mailbox address the message is for (`r_…@MAIL_DOMAIN`)
         * @example r_7f3k9q2m@mail.example.com
         */
        recipient: string;
        /** @description Names the relay in the payload’s `provider` (default `relay`) */
        provider?: string;
      };
      header: {
        /** @description INBOUND_SECRET */
        'x-inbound-secret': string;
        'x-inbound-provider'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "accepted": true,
           *       "externalMessageId": "<CAF=abc123@mail.example.org>"
           *     }
           */
          'application/json': {
            /** @enum {boolean} */
            accepted: true;
            externalMessageId: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Webhook not found';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
    };
  };
  urlMetadata: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "url": "https://example.com/",
         *       "aiSummary": "none"
         *     }
         */
        'application/json': {
          /** @description Absolute http or https URL of a public page */
          url: string;
          /**
           * @description `none` (55 credits); `short`, `medium`, `long` add a summary of about 50, 150 or 300 words and key facts (800 credits)
           * @default none
           * @enum {string}
           */
          aiSummary?: 'none' | 'short' | 'medium' | 'long';
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": true,
           *       "data": {
           *         "seo": {
           *           "title": "Example Domain",
           *           "description": "",
           *           "keywords": [],
           *           "canonical": "",
           *           "language": "en",
           *           "robots": "",
           *           "author": "",
           *           "headings": {
           *             "h1": [
           *               "Example Domain"
           *             ],
           *             "h2": [],
           *             "h3": []
           *           },
           *           "alternates": [],
           *           "wordCount": 28
           *         },
           *         "technical": {
           *           "statusCode": 200,
           *           "finalUrl": "https://example.com/",
           *           "originalUrl": "https://example.com/",
           *           "robotsAllowed": true,
           *           "isSecure": true,
           *           "contentType": "text/html; charset=UTF-8",
           *           "contentLength": 1256,
           *           "truncated": false,
           *           "redirects": 0,
           *           "responseTime": 182,
           *           "analysisTruncated": false,
           *           "server": "ECAcc (nyd/D144)",
           *           "lastModified": ""
           *         }
           *       },
           *       "timestamp": "2026-06-01T12:00:00.000Z"
           *     }
           */
          'application/json': {
            success: boolean;
            data: {
              seo: {
                title: string;
                description: string;
                keywords: string[];
                canonical: string;
                language: string;
                /** @description meta robots (or X-Robots-Tag for other documents) */
                robots: string;
                author: string;
                headings: {
                  h1: string[];
                  h2: string[];
                  h3: string[];
                } & {
                  [key: string]: unknown;
                };
                alternates: ({
                  hreflang: string;
                  href: string;
                } & {
                  [key: string]: unknown;
                })[];
                wordCount: number;
              } & {
                [key: string]: unknown;
              };
              technical: {
                statusCode: number;
                finalUrl: string;
                originalUrl: string;
                /** @description robots.txt of the final URL allows the user agent `coinop` */
                robotsAllowed: boolean;
                isSecure: boolean;
                contentType: string;
                /** @description Bytes of the body received */
                contentLength: number;
                /** @description The body exceeded the 2 MiB cap and was cut */
                truncated: boolean;
                redirects: number;
                /** @description Milliseconds */
                responseTime: number;
                /** @description The page outgrew a bound of the analysis (1 MiB of markup, 100,000 nodes, nesting 256 deep, 500 ms); the groups describe the part read */
                analysisTruncated: boolean;
                /**
                 * @description The bound reached first, when analysisTruncated
                 * @enum {string}
                 */
                analysisLimit?: 'bytes' | 'nodes' | 'depth' | 'time';
                server: string;
                lastModified: string;
              } & {
                [key: string]: unknown;
              };
              links?: {
                internal: {
                  total: number;
                  urls: string[];
                } & {
                  [key: string]: unknown;
                };
                external: {
                  total: number;
                  urls: string[];
                  domains: string[];
                } & {
                  [key: string]: unknown;
                };
                mailto: string[];
                tel: string[];
                nofollow: number;
              } & {
                [key: string]: unknown;
              };
              /** @description og:* properties, camel-cased; URL properties resolved, and left out unless http or https */
              openGraph?: {
                [key: string]: unknown;
              };
              /** @description twitter:* properties, camel-cased; URL properties resolved, and left out unless http or https */
              twitterCard?: {
                [key: string]: unknown;
              };
              /** @description Profile URLs by network (x, linkedin, github, …) and the favicon */
              social?: {
                favicon: string;
              } & {
                [key: string]: unknown;
              };
              contact?: {
                email: string;
                phone: string;
                emails: string[];
                phones: string[];
                socialProfiles: string[];
                address: string;
              } & {
                [key: string]: unknown;
              };
              media?: {
                images: {
                  total: number;
                  withoutAlt: number;
                  items: ({
                    src: string;
                    alt: string;
                    width?: number;
                    height?: number;
                  } & {
                    [key: string]: unknown;
                  })[];
                } & {
                  [key: string]: unknown;
                };
                videos: {
                  total: number;
                  urls: string[];
                } & {
                  [key: string]: unknown;
                };
                audio: {
                  total: number;
                  urls: string[];
                } & {
                  [key: string]: unknown;
                };
                icons: ({
                  rel: string;
                  href: string;
                  sizes?: string;
                  type?: string;
                } & {
                  [key: string]: unknown;
                })[];
                logo: string;
              } & {
                [key: string]: unknown;
              };
              structuredData?: {
                types: string[];
                /** @description JSON-LD entities as published, less URL values of other schemes than http and https */
                jsonLd: {
                  [key: string]: unknown;
                }[];
                basics: {
                  [key: string]: unknown;
                } | null;
                invalidBlocks: number;
              } & {
                [key: string]: unknown;
              };
              /** @description Present instead of the HTML groups when the URL is not an HTML page */
              document?: {
                /** @description image, video, audio, pdf, text, json, xml, font, archive or binary */
                kind: string;
                mimeType: string;
                filename: string;
                /** @description content-length, else bytes received; null when cut at the cap */
                size: number | null;
                width?: number;
                height?: number;
                format?: string;
                pages?: number;
                wordCount?: number;
              } & {
                [key: string]: unknown;
              };
              ai?: {
                /** @description The requested level only */
                summary: {
                  short?: string;
                  medium?: string;
                  long?: string;
                  /** @description Characters of main text extracted from the page */
                  contentLength: number;
                  /** @description Only part of the text was summarized */
                  truncated: boolean;
                } & {
                  [key: string]: unknown;
                };
                keyFacts: {
                  [key: string]: unknown;
                };
                /** @description Milliseconds */
                processingTime: number;
                /** @description `builtin-extractive` or the provider model */
                model: string;
                warning?: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
            /** Format: date-time */
            timestamp: string;
          };
        };
      };
      /** @description Malformed request, invalid URL or refused (non-public) address */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: false;
            error: string;
          };
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: false;
            error: string;
          };
        };
      };
      /** @description Internal Server Error */
      500: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: false;
            error: string;
          };
        };
      };
      /** @description The URL could not be fetched (DNS, connection, TLS, timeout, redirects, or a non-2xx answer) */
      502: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: false;
            error: string;
          };
        };
      };
      /** @description Too many calls of this wallet in progress: try again shortly (retry-after) */
      503: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: false;
            error: string;
          };
        };
      };
    };
  };
  myIp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ip": "203.0.113.7",
           *       "ipv6": "",
           *       "isCurrentIpv6": false,
           *       "userAgent": "curl/8.5.0",
           *       "acceptLanguage": "",
           *       "city": "",
           *       "country": "NL",
           *       "continent": "EU",
           *       "latitude": "",
           *       "longitude": "",
           *       "region": "",
           *       "regionCode": "",
           *       "timezone": "",
           *       "postalCode": ""
           *     }
           */
          'application/json': {
            /** @description IPv4 address; empty for native IPv6 callers (IPv4-mapped IPv6 counts as IPv4) */
            ip: string;
            /** @description IPv6 address when the caller is IPv6, else empty */
            ipv6: string;
            isCurrentIpv6: boolean;
            userAgent: string;
            acceptLanguage: string;
            /** @description City name; empty when unknown */
            city: string;
            /** @description ISO 3166-1 alpha-2 country code; empty when unknown */
            country: string;
            /** @description Continent code (AF, AN, AS, EU, NA, OC, SA); empty when unknown */
            continent: string;
            /** @description Decimal degrees, as a string; empty when unknown */
            latitude: string;
            /** @description Decimal degrees, as a string; empty when unknown */
            longitude: string;
            /** @description First-level subdivision name; empty when unknown */
            region: string;
            /** @description First-level subdivision code; empty when unknown */
            regionCode: string;
            /** @description IANA time zone; empty when unknown */
            timezone: string;
            /** @description Postal code; empty when unknown */
            postalCode: string;
          };
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Insufficient credits */
      402: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Insufficient credits';
        };
      };
    };
  };
  rechargeLink: {
    parameters: {
      query?: {
        /**
         * @description Millions of credits to buy: 1 or 3
         * @example 1
         */
        amount?: '1' | '3';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Payment URL */
      200: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          /** @example https://checkout.stripe.com/c/pay/cs_live_a1B2c3D4e5F6g7H8 */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Unauthorized */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Unauthorized';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
      /** @description Not implemented */
      501: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Recharge is not configured';
        };
      };
      /** @description Bad gateway: a short cause */
      502: {
        headers: {
          'x-cost': components['headers']['XCost'];
          'x-balance': components['headers']['XBalance'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  rechargeDone: {
    parameters: {
      query?: {
        cancelled?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A short message */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example Thank you: your payment was received. The credits are added to your wallet as soon as Stripe confirms it. */
          'text/plain': string;
        };
      };
    };
  };
  stripeWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "received": true,
           *       "credited": true,
           *       "credits": 1000000
           *     }
           */
          'application/json': {
            received: boolean;
            credited: boolean;
            credits?: number;
            reason?: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Invalid stripe-signature';
        };
      };
      /** @description Payload Too Large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Payload Too Large';
        };
      };
      /** @description Not implemented */
      501: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Recharge is not configured';
        };
      };
    };
  };
  walletGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @example a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8 */
        hash: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8",
           *       "wallet": 99,
           *       "created": "2026-06-01T12:00:00.000Z",
           *       "lastUsed": "2026-06-02T08:30:00.000Z"
           *     }
           */
          'application/json': {
            hash: string;
            wallet: number;
            /** Format: date-time */
            created: string;
            /** Format: date-time */
            lastUsed: string;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Not Found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  walletDelete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @example a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8 */
        hash: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example OK */
          'text/plain': string;
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Not Found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  walletCredit: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @example a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8 */
        hash: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "amount": 500,
         *       "reason": "Support ticket 1234"
         *     }
         */
        'application/json': {
          amount: number;
          /** @description Shown as `reason` on this call's entry in the wallet's log */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8",
           *       "wallet": 599
           *     }
           */
          'application/json': {
            hash: string;
            wallet: number;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Not Found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  walletDebit: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @example a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8 */
        hash: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "amount": 100,
         *       "reason": "Refunded payment 5678"
         *     }
         */
        'application/json': {
          amount: number;
          /** @description Shown as `reason` on this call's entry in the wallet's log */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8",
           *       "wallet": 499
           *     }
           */
          'application/json': {
            hash: string;
            wallet: number;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Not Found';
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Balance too low';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  walletList: {
    parameters: {
      query?: {
        /** @description The `cursor` of the previous page; omitted for the first */
        cursor?: string;
        /** @example 1 */
        limit?: number;
        /**
         * @description Newest or highest first; ties by wallet, newest first
         * @example balance
         */
        sort?: 'lastUsed' | 'balance' | 'created';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "wallets": [
           *         {
           *           "hash": "a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8",
           *           "wallet": 599,
           *           "created": "2026-06-01T12:00:00.000Z",
           *           "lastUsed": "2026-06-02T08:30:00.000Z"
           *         }
           *       ],
           *       "cursor": "WzE3ODA0NzUwMDAwMDAsNDJd"
           *     }
           */
          'application/json': {
            wallets: {
              hash: string;
              wallet: number;
              /** Format: date-time */
              created: string;
              /** Format: date-time */
              lastUsed: string;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last */
            cursor: string | null;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  walletLogs: {
    parameters: {
      query?: {
        /** @description The `cursor` of the previous page; omitted for the first */
        cursor?: string;
        /** @example 1 */
        limit?: number;
        /**
         * @description Filter on the log endpoint category
         * @example manage
         */
        type?:
          | 'kv'
          | 'token'
          | 'settings'
          | 'webhook'
          | 'webhook-delivery'
          | 'url-to-metadata'
          | 'myip'
          | 'service'
          | 'manage';
      };
      header?: never;
      path: {
        /** @example a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8 */
        hash: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "logs": [
           *         {
           *           "id": "01JX4Q8Z6T3N5R7V9B2D",
           *           "method": "POST",
           *           "path": "/manage/wallets/a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8/credit",
           *           "endpoint": "manage",
           *           "status_code": 200,
           *           "response_time_ms": 0,
           *           "timestamp": "2026-06-01T12:00:00.000Z",
           *           "expiration": "2026-06-08T12:00:00.000Z",
           *           "cost": 0,
           *           "balance": 599,
           *           "reason": "Support ticket 1234"
           *         }
           *       ],
           *       "cursor": "MTc4MDMxNTIwMDAwMC40Mg"
           *     }
           */
          'application/json': {
            logs: {
              id: string;
              method: string;
              /** @description Request path with query; the webhookId for webhook-delivery entries */
              path: string;
              /** @enum {string} */
              endpoint:
                | 'kv'
                | 'token'
                | 'settings'
                | 'webhook'
                | 'webhook-delivery'
                | 'url-to-metadata'
                | 'myip'
                | 'service'
                | 'manage';
              status_code: number;
              response_time_ms: number;
              error?: string;
              /** Format: date-time */
              timestamp: string;
              /** Format: date-time */
              expiration: string;
              cost: number;
              balance: number;
              /** @description webhook-delivery entries: the delivery (GET /webhook/{id}/deliveries/{deliveryId}) */
              deliveryId?: string;
              /** @description Beyond the contract: manage entries, the reason the operator gave for a credit or debit */
              reason?: string;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last */
            cursor: string | null;
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Not Found';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
  serviceStats: {
    parameters: {
      query?: {
        /** @example 2 */
        days?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "wallets": 1250,
           *       "credits": 184300,
           *       "spentPerDay": [
           *         {
           *           "day": "2026-06-01",
           *           "credits": 5120
           *         },
           *         {
           *           "day": "2026-06-02",
           *           "credits": 4870
           *         }
           *       ]
           *     }
           */
          'application/json': {
            /** @description Wallets that exist */
            wallets: number;
            /** @description Credits in circulation: the sum of every balance */
            credits: number;
            /** @description The last `days` days, oldest first, today included */
            spentPerDay: {
              /**
               * Format: date
               * @description UTC day
               */
              day: string;
              /** @description Credits spent that day */
              credits: number;
            }[];
          };
        };
      };
      /** @description Bad request: a short sentence naming the field and the rule */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Forbidden */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Forbidden';
        };
      };
      /** @description Too Many Requests */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': 'Too Many Requests';
        };
      };
    };
  };
}
