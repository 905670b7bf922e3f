/**
 * `POST /api/v1/subscriptions/{id}/erase` takes no fields: an empty or absent body. Declared so the
 * global pipe refuses any field (a `reason` would be kept nowhere), as it does in every body.
 */
export class EraseSubscriptionDto {}
