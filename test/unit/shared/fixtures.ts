import { NULL_LISTING_DETAIL } from '../../../src/shared/api/index.ts';

/** Valid examples of contract resources, shared by the contract tests. */
export const TS = '2026-11-21T09:00:00.000Z';

export const leanListingExample = {
  id: 101,
  app_id: 730 as const,
  market_hash_name: 'AK-47 | Redline (Field-Tested)',
  price: 1250,
  amount: 1,
  commodity: false,
  created_at: TS,
};

export const stickerExample = {
  slot: 0, sticker_id: 4321, name: 'Sticker | Crown (Foil)', image: 'https://img/crown.png', wear: 0.12,
  scale: 1, rotation: 0, tint_id: null, offset_x: 0.1, offset_y: -0.2, offset_z: 0, pattern: null,
};

export const fullListingExample = {
  ...leanListingExample,
  ...NULL_LISTING_DETAIL,
  steam_asset_id: '30000000001',
  icon_url: 'https://img/ak.png',
  trade_locked_until: null,
  cs_weapon: 'AK-47', cs_type: 'Rifle', cs_wear: 'Field-Tested', cs_rarity: 'Classified',
  cs_collection: 'The Phoenix Collection', cs_is_stattrak: false, cs_is_souvenir: false, cs_is_highlight: false,
  cs_inspect_link: 'steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20A1D2',
  cs_paint_wear: 0.2213, cs_paint_seed: 661, cs_paint_index: 282,
  cs_stickers: [stickerExample], cs_keychains: [],
};

export const tradeExample = {
  id: 7, type: 'SELL', status: 'Active', deposit_id: 55, withdraw_id: null, steam_offer_id: '6000001',
  value: 1250, error: null, created_at: TS, updated_at: TS,
  items: [{ app_id: 730, market_hash_name: 'AK-47 | Redline (Field-Tested)', steam_asset_id: '1', amount: 1, value: 1250 }],
};
