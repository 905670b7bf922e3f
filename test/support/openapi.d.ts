// Generated from the OpenAPI document by `npm run openapi:types`: do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers (503 while it does not, or while shutting down) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's organization */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set when the organization's devices count as offline (null: the default) */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/api/lease/checkout-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether checkout is available, and its amounts */
        get: operations["getCheckoutConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lease/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a subscription intent and open a hosted checkout session
         * @description `processor_unavailable`: no answer, a 5xx or a timeout; `processor_rejected`: the processor refused the request for a reason other than the coupon.
         */
        post: operations["startCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lease/checkout-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The status of the subscription behind a hosted checkout session (the success page polls it) */
        get: operations["getCheckoutStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payment-processor/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Signed events from the payment processor
         * @description 200 also for a duplicate, an event type or product it does not handle. Any non-2xx makes the processor deliver the event again: a 500 means the event could not be stored.
         */
        post: operations["receiveProcessorEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/shippable-devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Devices a record's Ship device may pick: active, held by no live record */
        get: operations["listShippableDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscriptions, newest first, optionally of one status or awaiting a device */
        get: operations["listSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One subscription with its history */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase its personal data (not while paid or past_due); again: the same record
         * @description A pending record's hosted checkout is expired at the processor first: a checkout already completed there is `409 conflict`, a processor out of reach `502 processor_unavailable` (nothing erased). The body is empty or absent; any field is `400 validation_failed`.
         */
        post: operations["eraseSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{id}/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Assign the device shipped (another device: a replacement unit); again: no change */
        put: operations["shipSubscriptionDevice"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What is held about it: the record, its history, its deliveries, who looked */
        get: operations["exportSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with an ID token from the identity provider; sets the session cookie
         * @description `id_token` at most 16384 characters. `email_not_verified`: a valid token, an unverified email, an account not linked yet. `unavailable` with Retry-After: the provider or a key it has just published cannot be read yet (the token may be good).
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the console signs in: the identity provider's issuer and its client id there */
        get: operations["getAuthConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reread the account and replace the session (and its cookie) */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the session and clear its cookie */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's live sessions */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/revoke-others": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End every session of the caller but this one */
        post: operations["revokeOtherSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of the caller’s sessions
         * @description `not_found` also for another person’s session or one already ended.
         */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The accounts of the administrator's organization */
        get: operations["listUsers"];
        put?: never;
        /** Add an account; it links on its first sign-in */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an account's role or disable it
         * @description `not_found` also for another organization’s user; `conflict` for disabling or demoting yourself, or leaving the organization without an active admin.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/v1/users/{id}/revoke-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End every session of an account (a lost laptop); the account itself stays
         * @description `not_found` also for another organization’s user.
         */
        post: operations["revokeUserSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a registered device identity (and its signed assertion) for a bearer token
         * @description `invalid_device` is one answer for an unknown, deactivated or mismatching device and for a missing or bad assertion. 429 per client address, and per device_id after failures.
         */
        post: operations["issueDeviceToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/v1/self": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling device's own record */
        get: operations["getDeviceSelf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/v1/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report in; stamps last_seen_at and stores what the device reports
         * @description Also the liveness contact: a device reported offline is back (`device.online`), a battery under the mark sends `device.battery_low` once (docs/devices.md, "Liveness").
         */
        post: operations["recordHeartbeat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's organization's devices, in device_id order */
        get: operations["listDevices"];
        put?: never;
        /** Register a device in the administrator's organization */
        post: operations["registerDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many of the session's organization's active devices are in each health
         * @description Health as the list works it out, at the time of the request; `battery_low`: the last reported battery is under `DEVICE_BATTERY_LOW_PCT`. Deactivated devices are not counted.
         */
        get: operations["getDeviceSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register up to 1 000 devices in the administrator's organization, all or nothing
         * @description A device already registered here with the same model and provider is `existing`; with any error row (by `index`) nothing is written. The body may be up to 256 KiB.
         */
        post: operations["registerDevices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/{device_id}/public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set or rotate a device's public key; the old key stops working at once
         * @description `validation_failed` also for a key that is not a usable EC P-256 or Ed25519 key.
         */
        put: operations["setDevicePublicKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deactivate a device; its outstanding tokens stop working at once */
        delete: operations["deactivateDevice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's endpoints */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Register an endpoint */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint (never its secret) */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete an endpoint */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Change or enable/disable */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret; the previous one keeps signing for 24 hours */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test to this endpoint, also while it is disabled */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{id}/deliveries/{event_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new attempt now, also for a failed delivery (409 while the endpoint is disabled) */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit events whose actor or subject is of the admin's organization, newest first */
        get: operations["listAuditEvents"];
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
    schemas: {
        OwnOrgResponse: {
            /**
             * Format: uuid
             * @example 3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15
             */
            id: string;
            /** @example Acme Care */
            name: string;
            /**
             * Format: date-time
             * @example 2026-01-15T09:30:00.000Z
             */
            created_at: string;
            /**
             * @description Seconds without contact before the organization's devices count as offline; null: the service default (DEVICE_OFFLINE_AFTER_SECONDS)
             * @example null
             */
            device_offline_after_seconds: number | null;
            /** @description True for the organization FULFILMENT_ORG_ID names: its users read subscriptions (/api/v1/subscriptions), so a dashboard shows them */
            fulfilment: boolean;
        };
        UpdateOrgDto: {
            /**
             * @description Seconds without a heartbeat or token before this organization's devices count as offline; null: the service default (DEVICE_OFFLINE_AFTER_SECONDS)
             * @example 600
             */
            device_offline_after_seconds: number | null;
        };
        CheckoutConfigDto: {
            /** @description Whether processor checkout is configured and active. */
            enabled: boolean;
            /** @example 24900 */
            lease_cents: number;
            /** @example 5000 */
            monthly_cents: number;
            /** @example usd */
            currency: string;
        };
        CreateCheckoutDto: {
            /** @example Dana Carer */
            name?: string;
            /** @example dana@example.com */
            email?: string;
            /**
             * @description Processor coupon id; case-insensitive, lowercased before use.
             * @example BETA-TESTER
             */
            coupon?: string;
            /**
             * @default plans
             * @example plans
             */
            source: string;
            /**
             * @description Only false: `true` is `400 phi_not_accepted` on this public endpoint.
             * @default false
             * @enum {boolean}
             */
            contains_phi: false;
        };
        CheckoutResponseDto: {
            /** @example true */
            ok: boolean;
            /** Format: uuid */
            subscription_id: string;
            /** @example https://checkout.stripe.com/c/pay/cs_test_… */
            checkout_url: string;
            /** @example 24900 */
            lease_cents: number;
            /** @example 5000 */
            monthly_cents: number;
            /** @example usd */
            currency: string;
        };
        CheckoutStatusDto: {
            /**
             * @example paid
             * @enum {string}
             */
            status: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
        };
        ShippableDeviceDto: {
            /** @example hub-000123 */
            device_id: string;
            /** @example hub-3 */
            model: string;
        };
        ShippableDevicePageDto: {
            items: components["schemas"]["ShippableDeviceDto"][];
            /** @description Pass as `cursor` for the next page */
            next_cursor: string | null;
        };
        SubscriptionListCustomerDto: {
            name: string | null;
        };
        SubscriptionListItemDto: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
            /** @description ISO 8601 */
            created_at: string;
            /** @description ISO 8601 */
            paid_at: string | null;
            /** @description ISO 8601 */
            canceled_at: string | null;
            coupon: string | null;
            customer: components["schemas"]["SubscriptionListCustomerDto"];
            /** @description ISO 8601 */
            erased_at: string | null;
        };
        SubscriptionListDto: {
            items: components["schemas"]["SubscriptionListItemDto"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        SubscriptionCustomerDto: {
            /** @description From the processor; before it reports, from the form */
            email: string | null;
            name: string | null;
            phone: string | null;
        };
        SubscriptionRecipientDto: {
            name: string | null;
            /** @example livesalone */
            living_situation: string | null;
            /** @example medicationreminders */
            primary_concern: string | null;
            /** @example 62701 */
            zip: string | null;
        };
        SubscriptionShippingDto: {
            name: string | null;
            /** @example 1 Main St, Apt 2, Springfield, IL 62701, US */
            address: string | null;
        };
        SubscriptionProcessorDto: {
            checkout_session_id: string | null;
            subscription_id: string | null;
            customer_id: string | null;
        };
        SubscriptionDeviceDto: {
            /** @example hub-0042 */
            device_id: string;
            /** @description ISO 8601 */
            assigned_at: string;
            /** @description Its first token after the assignment (ISO 8601) */
            activated_at: string | null;
            /** @example UPS */
            carrier: string | null;
            /** @description Personal data: stored sealed (docs/privacy.md) */
            tracking_number: string | null;
        };
        SubscriptionHistoryItemDto: {
            /** @example evt_1Q2w3E4r5T6y7U8i */
            event_id: string;
            /** @example checkout.session.completed */
            type: string;
            /** @enum {string} */
            from: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
            /** @enum {string} */
            to: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
            /** @description The event's `created` (ISO 8601) */
            event_created_at: string;
            /** @description ISO 8601 */
            received_at: string;
            /** @enum {string} */
            source: "webhook" | "reconcile";
        };
        SubscriptionDetailDto: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
            /** @description ISO 8601 */
            created_at: string;
            /** @description When it was paid; never before created_at (ISO 8601) */
            paid_at: string | null;
            /** @description ISO 8601 */
            canceled_at: string | null;
            /** @description When its checkout expired unfinished (ISO 8601) */
            expired_at: string | null;
            coupon: string | null;
            customer: components["schemas"]["SubscriptionCustomerDto"];
            recipient: components["schemas"]["SubscriptionRecipientDto"];
            shipping: components["schemas"]["SubscriptionShippingDto"];
            processor: components["schemas"]["SubscriptionProcessorDto"];
            /** @description When its personal data was erased (ISO 8601) */
            erased_at: string | null;
            /** @description The device shipped for it; null before any assignment */
            device: components["schemas"]["SubscriptionDeviceDto"] | null;
            /** @description In the order the events happened (their `created`; ties in arrival order) */
            history: components["schemas"]["SubscriptionHistoryItemDto"][];
        };
        EraseSubscriptionDto: Record<string, never>;
        SubscriptionRecordDto: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
            /** @description ISO 8601 */
            created_at: string;
            /** @description When it was paid; never before created_at (ISO 8601) */
            paid_at: string | null;
            /** @description ISO 8601 */
            canceled_at: string | null;
            /** @description When its checkout expired unfinished (ISO 8601) */
            expired_at: string | null;
            coupon: string | null;
            customer: components["schemas"]["SubscriptionCustomerDto"];
            recipient: components["schemas"]["SubscriptionRecipientDto"];
            shipping: components["schemas"]["SubscriptionShippingDto"];
            processor: components["schemas"]["SubscriptionProcessorDto"];
            /** @description When its personal data was erased (ISO 8601) */
            erased_at: string | null;
            /** @description The device shipped for it; null before any assignment */
            device: components["schemas"]["SubscriptionDeviceDto"] | null;
        };
        ShipDeviceDto: {
            /**
             * @description An active device of the fulfilment organization no other live record holds
             * @example hub-0042
             */
            device_id: string;
            /** @example UPS */
            carrier?: string;
            /**
             * @description Personal data (it locates a home at the carrier): stored sealed
             * @example 1Z999AA10123456784
             */
            tracking_number?: string;
        };
        SubscriptionDeliveryDto: {
            /** Format: uuid */
            endpoint_id: string;
            /** @example https://fulfilment.example.com/hooks/care */
            url: string;
            /** Format: uuid */
            event_id: string;
            /** @example subscription.paid */
            type: string;
            /** @description ISO 8601 */
            delivered_at: string;
        };
        AuditActorDto: {
            /** @enum {string} */
            type: "user" | "device" | "cli" | "system";
            /** @description The account or device; the OS user for `cli`; null for `system` */
            id: string | null;
        };
        AuditSubjectDto: {
            /** @example device */
            type: string;
            id: string;
        };
        AuditEventDto: {
            /**
             * @description Ascending in order of writing
             * @example 1042
             */
            id: string;
            /** @description ISO 8601 */
            occurred_at: string;
            /** @example user.role_changed */
            action: string;
            actor: components["schemas"]["AuditActorDto"];
            subject: components["schemas"]["AuditSubjectDto"] | null;
            /** @description The client's address */
            ip: string | null;
            /** @description The X-Request-Id of the request */
            request_id: string | null;
            /** @description Ids, counts and codes; never personal data */
            details: {
                [key: string]: unknown;
            };
        };
        SubscriptionExportDto: {
            subscription: components["schemas"]["SubscriptionDetailDto"];
            /** @description Deliveries made of the record's events, oldest first */
            deliveries: components["schemas"]["SubscriptionDeliveryDto"][];
            /** @description Audit events whose subject is this record (who looked at it), oldest first */
            access: components["schemas"]["AuditEventDto"][];
        };
        LoginDto: {
            /**
             * @description The identity provider's ID token (a signed JWT), at most 16 384 characters; a longer one is `400 validation_failed`
             * @example eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIn0.c2ln
             */
            id_token: string;
        };
        UserView: {
            /**
             * Format: uuid
             * @example 0b6f2c1e-8d4a-4f7b-9c3e-2a5d7e9f1b30
             */
            id: string;
            /** @example pat@example.com */
            email: string;
            /** @example Pat Doe */
            name: string | null;
            /**
             * Format: uuid
             * @example 3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15
             */
            org_id: string;
            /**
             * @example admin
             * @enum {string}
             */
            role: "admin" | "member";
        };
        SessionView: {
            /**
             * Format: date-time
             * @description the absolute end of the session
             * @example 2026-01-15T21:30:00.000Z
             */
            expires_at: string;
        };
        SignedInResponse: {
            user: components["schemas"]["UserView"];
            session: components["schemas"]["SessionView"];
        };
        AuthConfigResponse: {
            /**
             * @description Where the browser signs in: the first OIDC_ISSUER spelling that is a URL; null: sign-in is not configured
             * @example https://accounts.google.com
             */
            issuer: string | null;
            /**
             * @description The console's client id there (CONSOLE_OIDC_CLIENT_ID); null: not configured
             * @example device-care-console
             */
            client_id: string | null;
        };
        MeResponse: {
            user: components["schemas"]["UserView"];
        };
        SessionListItem: {
            /**
             * Format: uuid
             * @example 6a0f3d2e-1b4c-4e8a-9f7d-2c5b8e1a4d90
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-01-15T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description recorded at most once a minute
             * @example 2026-01-15T10:02:00.000Z
             */
            last_used_at: string;
            /** @example Mozilla/5.0 (X11; Linux x86_64) */
            user_agent: string | null;
            /** @example 203.0.113.7 */
            ip: string | null;
            /**
             * @description true for the session this request came with
             * @example true
             */
            current: boolean;
        };
        SessionListResponse: {
            items: components["schemas"]["SessionListItem"][];
        };
        RevokedResponse: {
            /**
             * @description how many sessions were ended
             * @example 2
             */
            revoked: number;
        };
        UserListItem: {
            /**
             * Format: uuid
             * @example 0b6f2c1e-8d4a-4f7b-9c3e-2a5d7e9f1b30
             */
            id: string;
            /** @example pat@example.com */
            email: string;
            /** @example Pat Doe */
            name: string | null;
            /**
             * Format: uuid
             * @example 3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15
             */
            org_id: string;
            /**
             * @example admin
             * @enum {string}
             */
            role: "admin" | "member";
            /** @description true: signing in is refused and no session is left */
            disabled: boolean;
        };
        UserListResponse: {
            items: components["schemas"]["UserListItem"][];
        };
        CreateUserDto: {
            /** @example pat@example.com */
            email: string;
            /**
             * @example member
             * @enum {string}
             */
            role: "admin" | "member";
            /** @example Pat Doe */
            name?: string;
        };
        UpdateUserDto: {
            /**
             * @example member
             * @enum {string}
             */
            role?: "admin" | "member";
            /**
             * @description true ends the account's sessions and blocks sign-in
             * @example false
             */
            disabled?: boolean;
        };
        RevokedSessionsResponse: {
            /**
             * @description how many sessions were ended
             * @example 2
             */
            revoked: number;
        };
        DeviceAuthDto: {
            /** @example sensor-0042 */
            device_id: string;
            /** @example hub-2 */
            model: string;
            /** @example acme */
            provider: string;
            /** @description Required for a device with a registered key: a JWT signed with its private key, `iss` = `sub` = device_id, `aud` = `{base_url}/auth/device`, `exp` at most 5 minutes ahead, a `jti` used once */
            assertion?: string;
        };
        DeviceTokenDto: {
            /** @description JWT for `Authorization: Bearer` */
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /**
             * @description Seconds until the token expires
             * @example 900
             */
            expires_in: number;
            /** @description When the token expires (ISO 8601); refresh before this */
            expires_at: string;
        };
        DeviceSelfDto: {
            /** @example sensor-0042 */
            device_id: string;
            /** @example hub-2 */
            model: string;
            /** @example acme */
            provider: string;
            /** @enum {string} */
            status: "active" | "deactivated";
            /** @description Last heartbeat (ISO 8601) */
            last_seen_at: string | null;
            /** @description ISO 8601 */
            created_at: string;
            /** @description RFC 7638 thumbprint (SHA-256) of the registered public key; null: no key */
            public_key_thumbprint: string | null;
            /** Format: uuid */
            org_id: string;
            firmware_version?: string | null;
            battery_pct?: number | null;
        };
        HeartbeatDto: {
            /** @example 2.4.1 */
            firmware_version?: string;
            /** @example 87 */
            battery_pct?: number;
        };
        DeviceListItemDto: {
            /** @example sensor-0042 */
            device_id: string;
            /** @example hub-2 */
            model: string;
            /** @example acme */
            provider: string;
            /** @enum {string} */
            status: "active" | "deactivated";
            /** @description Last heartbeat (ISO 8601) */
            last_seen_at: string | null;
            /** @description ISO 8601 */
            created_at: string;
            /**
             * @description never_seen before its first heartbeat or token; offline once it has been quiet longer than its organization's `device_offline_after_seconds`
             * @enum {string}
             */
            health: "online" | "offline" | "never_seen";
            /** @description Battery charge (0-100) of the last heartbeat that reported one */
            battery_pct: number | null;
            /** @description Firmware of the last heartbeat that reported one */
            firmware_version: string | null;
        };
        DeviceListDto: {
            items: components["schemas"]["DeviceListItemDto"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        DeviceSummaryDto: {
            /**
             * @description Active devices heard from in time
             * @example 41
             */
            online: number;
            /**
             * @description Active devices quiet past the threshold
             * @example 3
             */
            offline: number;
            /**
             * @description Active devices never heard from
             * @example 7
             */
            never_seen: number;
            /**
             * @description Active devices whose last reported battery is under DEVICE_BATTERY_LOW_PCT
             * @example 2
             */
            battery_low: number;
        };
        DevicePublicJwkDto: {
            /** @enum {string} */
            kty: "EC" | "OKP";
            /** @enum {string} */
            crv: "P-256" | "Ed25519";
            /** @description base64url, 32 bytes */
            x: string;
            /** @description base64url, 32 bytes; EC keys only */
            y?: string;
            /** @description Defaults to the RFC 7638 thumbprint */
            kid?: string;
            /** @enum {string} */
            alg?: "ES256" | "EdDSA" | "Ed25519";
            /** @enum {string} */
            use?: "sig";
        };
        CreateDeviceDto: {
            /**
             * @description Canonical id: lowercase letters, digits and . _ : -
             * @example sensor-0042
             */
            device_id: string;
            /** @example hub-2 */
            model: string;
            /** @example acme */
            provider: string;
            /** @description The public key the device signs its assertions with (no private members) */
            public_key?: components["schemas"]["DevicePublicJwkDto"];
        };
        DeviceRecordDto: {
            /** @example sensor-0042 */
            device_id: string;
            /** @example hub-2 */
            model: string;
            /** @example acme */
            provider: string;
            /** @enum {string} */
            status: "active" | "deactivated";
            /** @description Last heartbeat (ISO 8601) */
            last_seen_at: string | null;
            /** @description ISO 8601 */
            created_at: string;
            /** @description RFC 7638 thumbprint (SHA-256) of the registered public key; null: no key */
            public_key_thumbprint: string | null;
        };
        RegisterDevicesDto: {
            /** @description Each checked as POST /api/v1/devices checks its body; a bad one is an error row */
            devices: components["schemas"]["CreateDeviceDto"][];
        };
        DeviceBatchErrorDto: {
            /**
             * @description The position of the item in `devices`, from 0
             * @example 537
             */
            index: number;
            /**
             * @example device_exists
             * @enum {string}
             */
            code: "validation_failed" | "device_exists";
            /** @example A device with this device_id is already registered. */
            message: string;
        };
        DeviceBatchResultDto: {
            /** @description Registered by this call, in batch order */
            created: string[];
            /** @description Already registered in this organization with the same model and provider */
            existing: string[];
            errors: components["schemas"]["DeviceBatchErrorDto"][];
        };
        SetDevicePublicKeyDto: {
            public_key: components["schemas"]["DevicePublicJwkDto"];
        };
        CreateWebhookEndpointDto: {
            /** @example https://hooks.example.com/device-care */
            url: string;
            description?: string;
            /** @description Defaults to every type the organization may receive */
            event_types?: ("subscription.created" | "subscription.paid" | "subscription.past_due" | "subscription.payment_failed" | "subscription.expired" | "subscription.canceled" | "subscription.erased" | "subscription.shipped" | "subscription.activated" | "device.registered" | "device.deactivated" | "device.key_rotated" | "device.offline" | "device.online" | "device.battery_low" | "device.return_requested")[];
        };
        WebhookEndpointCreatedDto: {
            /** Format: uuid */
            id: string;
            url: string;
            description: string | null;
            event_types: ("subscription.created" | "subscription.paid" | "subscription.past_due" | "subscription.payment_failed" | "subscription.expired" | "subscription.canceled" | "subscription.erased" | "subscription.shipped" | "subscription.activated" | "device.registered" | "device.deactivated" | "device.key_rotated" | "device.offline" | "device.online" | "device.battery_low" | "device.return_requested")[];
            enabled: boolean;
            /** @description ISO 8601 */
            created_at: string;
            /**
             * @description Shown here and by rotation only
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        WebhookEndpointDto: {
            /** Format: uuid */
            id: string;
            url: string;
            description: string | null;
            event_types: ("subscription.created" | "subscription.paid" | "subscription.past_due" | "subscription.payment_failed" | "subscription.expired" | "subscription.canceled" | "subscription.erased" | "subscription.shipped" | "subscription.activated" | "device.registered" | "device.deactivated" | "device.key_rotated" | "device.offline" | "device.online" | "device.battery_low" | "device.return_requested")[];
            enabled: boolean;
            /** @description ISO 8601 */
            created_at: string;
        };
        WebhookEndpointListDto: {
            items: components["schemas"]["WebhookEndpointDto"][];
        };
        UpdateWebhookEndpointDto: {
            /** @example https://hooks.example.com/device-care */
            url?: string;
            description?: string;
            /** @description Defaults to every type the organization may receive */
            event_types?: ("subscription.created" | "subscription.paid" | "subscription.past_due" | "subscription.payment_failed" | "subscription.expired" | "subscription.canceled" | "subscription.erased" | "subscription.shipped" | "subscription.activated" | "device.registered" | "device.deactivated" | "device.key_rotated" | "device.offline" | "device.online" | "device.battery_low" | "device.return_requested")[];
            /** @description Enabling again sends only events stored from then on */
            enabled?: boolean;
        };
        WebhookSecretDto: {
            /** @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw */
            secret: string;
        };
        WebhookEventIdDto: {
            /** Format: uuid */
            event_id: string;
        };
        WebhookDeliveryDto: {
            /** Format: uuid */
            event_id: string;
            /** @example subscription.paid */
            type: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            last_status_code: number | null;
            /**
             * @description Why the last attempt failed, in the service's own words, never the receiver's answer: `http_<status>` (an answer outside 2xx and 3xx), `timeout`, `connection_refused`, `connection_reset`, `unreachable`, `tls`, `connection_failed`, `name_not_resolved`, `refused_address`, `redirect_not_followed`, `aborted`, `not_sent`, `endpoint_disabled`, `erased`
             * @example http_503
             */
            last_error: string | null;
            /** @description ISO 8601 */
            next_attempt_at: string | null;
            /** @description ISO 8601 */
            delivered_at: string | null;
            /** @description ISO 8601 */
            created_at: string;
        };
        WebhookDeliveryListDto: {
            items: components["schemas"]["WebhookDeliveryDto"][];
            /** @description Pass as `cursor`; null on the last page */
            next_cursor: string | null;
        };
        AuditEventListDto: {
            items: components["schemas"]["AuditEventDto"][];
            /** @description Pass as `cursor`; null on the last page */
            next_cursor: string | null;
        };
        /**
         * @description Stable, snake_case: clients branch on it; a code is never renamed
         * @enum {string}
         */
        ErrorCode: "validation_failed" | "invalid_coupon" | "phi_not_accepted" | "invalid_signature" | "webhook_url_refused" | "unauthenticated" | "invalid_id_token" | "invalid_device" | "account_not_found" | "account_disabled" | "email_not_verified" | "forbidden" | "not_found" | "method_not_allowed" | "request_timeout" | "conflict" | "device_exists" | "user_exists" | "limit_reached" | "payload_too_large" | "unsupported_media_type" | "headers_too_large" | "rate_limited" | "processor_unavailable" | "processor_rejected" | "checkout_not_configured" | "sign_in_not_configured" | "webhook_not_configured" | "unavailable" | "internal_error";
        FieldError: {
            /**
             * @description The field, as a dotted path in the body or query
             * @example email
             */
            field: string;
            /** @example email must be an email */
            message: string;
        };
        ProblemDetails: {
            /**
             * @example about:blank
             * @enum {string}
             */
            type: "about:blank";
            /**
             * @description The status's reason phrase
             * @example Bad Request
             */
            title: string;
            /** @example 400 */
            status: number;
            /** @description Stable, snake_case: clients branch on it; a code is never renamed */
            code: components["schemas"]["ErrorCode"];
            /** @description For people; never a stack trace, SQL or a secret */
            detail: string;
            /** @description Only on `validation_failed`: each field that broke its rule */
            errors?: components["schemas"]["FieldError"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready; `details` never changes the status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "error";
                        checks: {
                            /** @enum {string} */
                            database?: "up" | "down";
                        };
                        version: string;
                        /** @description only with `Authorization: Bearer <METRICS_TOKEN>` */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The database cannot be reached (the same report, not a problem) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "error";
                        checks: {
                            /** @enum {string} */
                            database?: "up" | "down";
                        };
                        version: string;
                        /** @description only with `Authorization: Bearer <METRICS_TOKEN>` */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {unknown} */
                        status?: "ok";
                    };
                };
            };
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnOrgResponse"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrgDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnOrgResponse"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    getCheckoutConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutConfigDto"];
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    startCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCheckoutDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutResponseDto"];
                };
            };
            /** @description Bad Request: `validation_failed`, `invalid_coupon`, `phi_not_accepted` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed" | "invalid_coupon" | "phi_not_accepted";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Bad Gateway: `processor_unavailable`, `processor_rejected` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "processor_unavailable" | "processor_rejected";
                    };
                };
            };
            /** @description Service Unavailable: `checkout_not_configured`, `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "checkout_not_configured" | "unavailable";
                    };
                };
            };
        };
    };
    getCheckoutStatus: {
        parameters: {
            query: {
                /** @description The `session_id` of the success URL */
                session_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutStatusDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    receiveProcessorEvent: {
        parameters: {
            query?: never;
            header: {
                "stripe-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The processor's event, exactly as signed (up to 1 MiB) */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "received": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        received?: true;
                    };
                };
            };
            /** @description Bad Request: `validation_failed`, `invalid_signature` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed" | "invalid_signature";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `webhook_not_configured`, `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "webhook_not_configured" | "unavailable";
                    };
                };
            };
        };
    };
    listShippableDevices: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShippableDevicePageDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                status?: "pending" | "paid" | "past_due" | "canceled" | "expired" | "payment_failed";
                email?: string;
                /** @description true: only live (paid, past_due) records that no device has been shipped for yet, erased ones left out; false or absent: no such filter */
                awaiting_device?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionListDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionDetailDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    eraseSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EraseSubscriptionDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionRecordDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Conflict: `conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "conflict";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Bad Gateway: `processor_unavailable` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "processor_unavailable";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    shipSubscriptionDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShipDeviceDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionRecordDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Conflict: `conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "conflict";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    exportSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionExportDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginDto"];
            };
        };
        responses: {
            /** @description Sets the HttpOnly session cookie */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `invalid_id_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "invalid_id_token";
                    };
                };
            };
            /** @description Forbidden: `account_not_found`, `account_disabled`, `email_not_verified`, `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "account_not_found" | "account_disabled" | "email_not_verified" | "forbidden";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `sign_in_not_configured`, `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "sign_in_not_configured" | "unavailable";
                    };
                };
            };
        };
    };
    getAuthConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthConfigResponse"];
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeResponse"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new cookie; the old one stops working */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked and cleared, also without a valid session */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionListResponse"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    revokeOtherSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedResponse"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListResponse"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserDto"];
            };
        };
        responses: {
            /** @description Signs in on first login by email */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserView"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Conflict: `user_exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "user_exists";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserView"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Conflict: `conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "conflict";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    revokeUserSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedSessionsResponse"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    issueDeviceToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceAuthDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceTokenDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `invalid_device` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "invalid_device";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    getDeviceSelf: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceSelfDto"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    recordHeartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HeartbeatDto"];
            };
        };
        responses: {
            /** @description Recorded */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listDevices: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                /** @description Only devices in this health */
                health?: "online" | "offline" | "never_seen";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceListDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    registerDevice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeviceDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceRecordDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Conflict: `device_exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "device_exists";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    getDeviceSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceSummaryDto"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    registerDevices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterDevicesDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceBatchResultDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    setDevicePublicKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetDevicePublicKeyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceRecordDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    deactivateDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deactivated (also when it already was) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointListDto"];
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointCreatedDto"];
                };
            };
            /** @description Bad Request: `validation_failed`, `webhook_url_refused` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed" | "webhook_url_refused";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Conflict: `limit_reached` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "limit_reached";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointDto"];
                };
            };
            /** @description Bad Request: `validation_failed`, `webhook_url_refused` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed" | "webhook_url_refused";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEventIdDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryListDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEventIdDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Not Found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "not_found";
                    };
                };
            };
            /** @description Conflict: `conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "conflict";
                    };
                };
            };
            /** @description Payload Too Large: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                action?: string;
                /** @description The account that did it */
                actor_id?: string;
                /** @description The record it was done to */
                subject_id?: string;
                /** @description ISO 8601: events at or after this time */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventListDto"];
                };
            };
            /** @description Bad Request: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "validation_failed";
                    };
                };
            };
            /** @description Unauthorized: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unauthenticated";
                    };
                };
            };
            /** @description Forbidden: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "forbidden";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"] & {
                        /** @enum {string} */
                        code: "unavailable";
                    };
                };
            };
        };
    };
}
