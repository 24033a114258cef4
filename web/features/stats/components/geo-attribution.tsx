import { DB_IP_URL, statsMessages } from '@common/stats/stats-messages';

/** DB-IP's licence (CC BY 4.0) asks for this wherever its locations are shown. */
export function GeoAttribution() {
  return (
    <p className="text-xs text-slate-400">
      <a href={DB_IP_URL} target="_blank" rel="noreferrer" className="underline-offset-2 hover:text-slate-200 hover:underline">
        {statsMessages.geoAttribution}
      </a>
    </p>
  );
}
