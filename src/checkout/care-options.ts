/**
 * The hosted page's dropdown options, values alphanumeric for the processor. Their one copy: the
 * checkout sends them, and the operators' console (console/) imports this file to show a stored
 * value by its label. It imports nothing, so the console's bundle takes only these lines.
 */
export const LIVING_SITUATIONS = [
  { value: 'livesalone', label: 'Lives alone' },
  { value: 'liveswithspouse', label: 'Lives with spouse-partner' },
  { value: 'liveswithfamily', label: 'Lives with family' },
  { value: 'assistedliving', label: 'Assisted living' },
] as const;

export const PRIMARY_CONCERNS = [
  { value: 'companionship', label: 'Companionship' },
  { value: 'safetycheckins', label: 'Safety and check-ins' },
  { value: 'medicationreminders', label: 'Medication reminders' },
  { value: 'memorysupport', label: 'Memory and cognitive support' },
  { value: 'stayingconnected', label: 'Staying connected with family' },
] as const;
