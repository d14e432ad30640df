import type { OwnerSection } from '../../../routes';

/** The console's navigation: the website's own sections, then the account's (shared by all its websites). */
export const SECTION_GROUPS: { title: string; sections: { section: OwnerSection; label: string }[] }[] = [
  {
    title: 'This website',
    sections: [
      { section: 'install', label: 'Install' },
      { section: 'appearance', label: 'Appearance' },
      { section: 'scan', label: 'Scan and cookies' },
      { section: 'records', label: 'Consent records' },
      { section: 'requests', label: 'Requests' },
      { section: 'figures', label: 'Consent figures' },
    ],
  },
  {
    title: 'Account',
    sections: [
      { section: 'company', label: 'Company' },
      { section: 'users', label: 'Users' },
    ],
  },
];
