import {
  boxplot,
  folded,
  histogram,
  n,
  o,
  pointMap,
  q,
  scatter,
  scatterWithFit,
  t,
  topBars,
  troveData,
  type VegaLiteSpec,
} from "./builders.ts";

export const VIS_CATEGORIES = [
  "comparison",
  "ranking",
  "distribution",
  "trend",
  "relationship",
  "composition",
  "geographic",
  "matrix",
] as const;
export type VisCategory = (typeof VIS_CATEGORIES)[number];

export type Visualization = {
  name: string;
  title: string;
  category: VisCategory;
  description: string;
  /** The trove dataset the chart reads, as "category/id". */
  dataset: string;
  spec: VegaLiteSpec;
};

type Entry = [
  name: string,
  category: VisCategory,
  dataset: string,
  title: string,
  description: string,
  body: VegaLiteSpec,
];

const WEEKDAY_LABELS = "['Mon','Tue','Wed','Thu','Fri','Sat','Sun'][datum.value - 1]";
const MONTH_LABELS = "['Jan','Feb','Mar','Apr','May','Jun','Jul','Aug','Sep','Oct','Nov','Dec'][datum.value - 1]";
const GAPMINDER_REGION =
  "['South Asia','Europe & Central Asia','Sub-Saharan Africa','Americas','East Asia & Pacific','Middle East & North Africa'][datum.cluster]";
const HUBS = ["ATL", "ORD", "DFW", "DEN", "LAX", "PHX", "IAH", "LAS", "DTW", "MSP", "SFO", "EWR", "SLC", "CLT", "MCO"];

const ENTRIES: Entry[] = [
  // accessibility
  [
    "openmoji-symbols-by-group",
    "comparison",
    "accessibility/openmoji-aac-symbols",
    "OpenMoji symbols per Unicode group",
    "How many OpenMoji symbols each Unicode emoji group offers to AAC boards.",
    {
      mark: "bar",
      encoding: {
        y: n("group", { sort: "-x", title: "Unicode group" }),
        x: { aggregate: "count", type: "quantitative", title: "Symbols" },
      },
    },
  ],
  [
    "openmoji-top-subgroups",
    "ranking",
    "accessibility/openmoji-aac-symbols",
    "Largest OpenMoji subgroups",
    "The 15 OpenMoji subgroups with the most symbols.",
    topBars("subgroup", null, "count", 15, { category: "Subgroup", value: "Symbols" }),
  ],
  [
    "internet-access-distribution",
    "distribution",
    "accessibility/internet-access",
    "Share of population online",
    "How countries spread by the share of their population using the internet (about 2014).",
    histogram("percent_online", "Population online (%)", 20),
  ],
  [
    "internet-access-by-region",
    "comparison",
    "accessibility/internet-access",
    "Internet access by Factbook region",
    "Mean share of population online in each World Factbook region.",
    {
      mark: "bar",
      encoding: {
        y: n("region", { sort: "-x", title: "Region" }),
        x: q("percent_online", { aggregate: "mean", title: "Mean population online (%)" }),
      },
    },
  ],
  [
    "water-vs-sanitation",
    "relationship",
    "accessibility/water-sanitation-access",
    "Drinking water vs sanitation access",
    "Countries by share of population with improved drinking water and with improved sanitation.",
    scatter(
      q("water_total", { title: "Improved drinking water (%)", scale: { zero: false } }),
      q("sanitation_total", { title: "Improved sanitation (%)" }),
      { color: n("region", { title: "Region" }), tooltip: [n("country"), q("water_total"), q("sanitation_total")] },
    ),
  ],
  [
    "water-access-urban-rural",
    "comparison",
    "accessibility/water-sanitation-access",
    "Urban and rural water access by region",
    "Mean share of urban and of rural population with improved drinking water, per region.",
    {
      transform: [folded(["water_urban", "water_rural"], ["area", "pct"])],
      mark: "bar",
      encoding: {
        y: n("region", { title: "Region" }),
        yOffset: n("area"),
        x: q("pct", { aggregate: "mean", title: "Improved drinking water (%)" }),
        color: n("area", { title: "Population" }),
      },
    },
  ],

  // attention
  [
    "movies-imdb-vs-rotten-tomatoes",
    "relationship",
    "attention/movies",
    "IMDB rating vs Rotten Tomatoes rating",
    "Do audiences (IMDB) and critics (Rotten Tomatoes) agree? One point per film.",
    scatter(
      q("IMDB Rating", { title: "IMDB rating" }),
      q("Rotten Tomatoes Rating", { title: "Rotten Tomatoes rating (%)" }),
      { tooltip: [n("Title")] },
    ),
  ],
  [
    "movies-imdb-rating-distribution",
    "distribution",
    "attention/movies",
    "Distribution of IMDB ratings",
    "How films spread over IMDB rating.",
    histogram("IMDB Rating", "IMDB rating", 20),
  ],
  [
    "movies-gross-by-genre",
    "comparison",
    "attention/movies",
    "Mean worldwide gross by genre",
    "Average worldwide box-office gross of films in each major genre.",
    {
      transform: [{ filter: "datum['Major Genre'] != null" }],
      mark: "bar",
      encoding: {
        y: n("Major Genre", { sort: "-x", title: "Genre" }),
        x: q("Worldwide Gross", { aggregate: "mean", title: "Mean worldwide gross (USD)" }),
      },
    },
  ],
  [
    "movies-budget-vs-gross",
    "relationship",
    "attention/movies",
    "Production budget vs worldwide gross",
    "Films by production budget and worldwide gross, on log scales.",
    scatter(
      q("Production Budget", { scale: { type: "log" }, title: "Production budget (USD)" }),
      q("Worldwide Gross", { scale: { type: "log" }, title: "Worldwide gross (USD)" }),
      { color: n("MPAA Rating", { title: "Rating" }) },
      [{ filter: "datum['Production Budget'] > 0 && datum['Worldwide Gross'] > 0" }],
    ),
  ],
  [
    "movies-most-voted",
    "ranking",
    "attention/movies",
    "Films with the most IMDB votes",
    "The 15 films that drew the most IMDB votes.",
    topBars("Title", "IMDB Votes", "sum", 15, { category: "Film", value: "IMDB votes" }),
  ],
  [
    "github-punchcard",
    "matrix",
    "attention/github-activity",
    "GitHub contributions by weekday and hour",
    "A punch card: total contributions in each hour of each weekday over 2015.",
    {
      mark: "rect",
      encoding: {
        x: o("time", { timeUnit: "hours", title: "Hour" }),
        y: o("time", { timeUnit: "day", title: "Weekday" }),
        color: q("count", { aggregate: "sum", title: "Contributions" }),
      },
    },
  ],
  [
    "github-monthly-contributions",
    "trend",
    "attention/github-activity",
    "GitHub contributions per month",
    "Total contributions in each month of 2015.",
    {
      mark: "bar",
      encoding: {
        x: o("time", { timeUnit: "month", title: "Month" }),
        y: q("count", { aggregate: "sum", title: "Contributions" }),
      },
    },
  ],
  [
    "sotu-length-over-time",
    "trend",
    "attention/state-of-the-union-addresses",
    "Length of State of the Union addresses",
    "Words in each State of the Union address since 1790, coloured by the president's party.",
    {
      mark: { type: "point", filled: true },
      encoding: {
        x: q("year", { scale: { zero: false }, axis: { format: "d" }, title: "Year" }),
        y: q("words", { title: "Words" }),
        color: n("party", { title: "Party" }),
        tooltip: [n("president"), q("year"), q("words")],
      },
    },
  ],
  [
    "sotu-length-by-party",
    "comparison",
    "attention/state-of-the-union-addresses",
    "Mean address length by party",
    "Average length in words of State of the Union addresses by the president's party.",
    {
      mark: "bar",
      encoding: {
        y: n("party", { sort: "-x", title: "Party" }),
        x: q("words", { aggregate: "mean", title: "Mean words" }),
      },
    },
  ],

  // cultural
  [
    "monarchs-reigns-timeline",
    "comparison",
    "cultural/english-monarchs",
    "Reigns of English monarchs",
    "Each monarch's reign from start to end year, in order.",
    {
      transform: [{ calculate: "datum.commonwealth ? 'Commonwealth' : 'Crown'", as: "rule" }],
      mark: "bar",
      encoding: {
        y: n("name", { sort: { field: "start" }, title: "Monarch" }),
        x: q("start", { scale: { zero: false }, axis: { format: "d" }, title: "Year" }),
        x2: { field: "end" },
        color: n("rule", { title: "Rule" }),
      },
    },
  ],
  [
    "monarchs-reign-length",
    "ranking",
    "cultural/english-monarchs",
    "Longest reigns",
    "Monarchs ranked by length of reign in years.",
    {
      transform: [{ calculate: "datum.end - datum.start", as: "years" }],
      mark: "bar",
      encoding: { y: n("name", { sort: "-x", title: "Monarch" }), x: q("years", { title: "Years on the throne" }) },
    },
  ],
  [
    "football-goals-per-match",
    "comparison",
    "cultural/european-football-results",
    "Goals per match by league",
    "Average goals per match in five European leagues, 2013–2017.",
    {
      transform: [{ calculate: "datum.home_score + datum.away_score", as: "goals" }],
      mark: "bar",
      encoding: {
        y: n("division", { sort: "-x", title: "League" }),
        x: q("goals", { aggregate: "mean", title: "Mean goals per match" }),
      },
    },
  ],
  [
    "football-total-goals-distribution",
    "distribution",
    "cultural/european-football-results",
    "Goals in a match",
    "How many matches ended with each number of total goals.",
    {
      transform: [{ calculate: "datum.home_score + datum.away_score", as: "goals" }],
      mark: "bar",
      encoding: {
        x: o("goals", { title: "Total goals" }),
        y: { aggregate: "count", type: "quantitative", title: "Matches" },
      },
    },
  ],
  [
    "football-home-advantage",
    "composition",
    "cultural/european-football-results",
    "Home wins, draws and away wins",
    "Share of matches won at home, drawn and won away in each league.",
    {
      transform: [
        {
          calculate:
            "datum.home_score > datum.away_score ? 'home win' : datum.home_score < datum.away_score ? 'away win' : 'draw'",
          as: "result",
        },
      ],
      mark: "bar",
      encoding: {
        y: n("division", { title: "League" }),
        x: { aggregate: "count", type: "quantitative", stack: "normalize", title: "Share of matches" },
        color: n("result", { title: "Result", sort: ["home win", "draw", "away win"] }),
      },
    },
  ],
  [
    "languages-most-official",
    "ranking",
    "cultural/world-languages",
    "Languages official in the most countries",
    "The 15 languages that are official in the most countries.",
    topBars("language", null, "count", 15, { category: "Language", value: "Countries" }),
  ],
  [
    "languages-per-country",
    "distribution",
    "cultural/world-languages",
    "Official languages per country",
    "How many countries have one, two, three or more official languages.",
    {
      transform: [{ aggregate: [{ op: "count", as: "languages" }], groupby: ["country"] }],
      mark: "bar",
      encoding: {
        x: o("languages", { title: "Official languages" }),
        y: { aggregate: "count", type: "quantitative", title: "Countries" },
      },
    },
  ],
  [
    "miserables-most-connected",
    "ranking",
    "cultural/les-miserables-characters",
    "Most connected characters in Les Misérables",
    "The 15 characters with the most chapter co-occurrences with others, counting both ends of each pair.",
    topBars("character", "value", "sum", 15, { category: "Character", value: "Co-occurrences" }, [
      { fold: ["source", "target"], as: ["end", "character"] },
    ]),
  ],
  [
    "miserables-cooccurrence-matrix",
    "matrix",
    "cultural/les-miserables-characters",
    "Les Misérables co-occurrence matrix",
    "How often each pair of characters appears in the same chapter.",
    {
      mark: "rect",
      encoding: {
        x: n("source", { title: null, axis: { labelFontSize: 6 } }),
        y: n("target", { title: null, axis: { labelFontSize: 6 } }),
        color: q("value", { title: "Chapters together" }),
      },
    },
  ],

  // environmental
  [
    "seattle-monthly-high",
    "trend",
    "environmental/seattle-weather",
    "Seattle monthly mean high temperature",
    "Mean daily maximum temperature in Seattle for each month, 2012–2015.",
    {
      mark: "line",
      encoding: {
        x: t("date", { timeUnit: "yearmonth", title: "Month" }),
        y: q("temp_max", { aggregate: "mean", title: "Mean daily high (°C)" }),
      },
    },
  ],
  [
    "seattle-weather-types",
    "composition",
    "environmental/seattle-weather",
    "Seattle weather types by month",
    "Days of sun, rain, fog, drizzle and snow in each month of the year.",
    {
      mark: "bar",
      encoding: {
        x: o("date", { timeUnit: "month", title: "Month" }),
        y: { aggregate: "count", type: "quantitative", title: "Days" },
        color: n("weather", { title: "Weather" }),
      },
    },
  ],
  [
    "seattle-high-by-month",
    "distribution",
    "environmental/seattle-weather",
    "Spread of Seattle daily highs by month",
    "Box plots of daily maximum temperature in each calendar month.",
    {
      transform: [{ calculate: "month(datum.date) + 1", as: "month" }],
      mark: "boxplot",
      encoding: {
        x: o("month", { title: "Month", axis: { labelExpr: MONTH_LABELS } }),
        y: q("temp_max", { title: "Daily high (°C)" }),
      },
    },
  ],
  [
    "seattle-vs-new-york-rain",
    "comparison",
    "environmental/weather-seattle-new-york",
    "Monthly rain: Seattle vs New York",
    "Mean daily precipitation in each calendar month in Seattle and New York.",
    {
      mark: "line",
      encoding: {
        x: o("date", { timeUnit: "month", title: "Month" }),
        y: q("precipitation", { aggregate: "mean", title: "Mean daily precipitation (mm)" }),
        color: n("location", { title: "City" }),
      },
    },
  ],
  [
    "seattle-vs-new-york-weather",
    "comparison",
    "environmental/weather-seattle-new-york",
    "Weather types: Seattle vs New York",
    "Number of days of each weather type in the two cities, 2012–2015.",
    {
      mark: "bar",
      encoding: {
        y: n("weather", { title: "Weather" }),
        yOffset: n("location"),
        x: { aggregate: "count", type: "quantitative", title: "Days" },
        color: n("location", { title: "City" }),
      },
    },
  ],
  [
    "co2-keeling-curve",
    "trend",
    "environmental/co2-concentration",
    "The Keeling curve",
    "Monthly atmospheric CO₂ at Mauna Loa since 1958, raw and seasonally adjusted.",
    {
      transform: [folded(["CO2", "adjusted CO2"], ["series", "ppm"])],
      mark: "line",
      encoding: {
        x: t("Date", { title: "Date" }),
        y: q("ppm", { scale: { zero: false }, title: "CO₂ (ppm)" }),
        color: n("series", { title: "Series" }),
      },
    },
  ],
  [
    "co2-seasonal-cycle",
    "trend",
    "environmental/co2-concentration",
    "Seasonal cycle of CO₂",
    "Mean difference between measured and seasonally adjusted CO₂ in each calendar month: plants breathing in and out.",
    {
      transform: [{ calculate: "datum.CO2 - datum['adjusted CO2']", as: "seasonal" }],
      mark: { type: "line", point: true },
      encoding: {
        x: o("Date", { timeUnit: "month", title: "Month" }),
        y: q("seasonal", { aggregate: "mean", title: "Seasonal deviation (ppm)" }),
      },
    },
  ],
  [
    "global-temperature-anomaly",
    "trend",
    "environmental/global-temperature",
    "Global temperature anomaly",
    "Annual global surface temperature relative to 1951–1980, warmer years in red.",
    {
      mark: "bar",
      encoding: {
        x: o("year", { title: "Year", axis: { labelExpr: "datum.value % 20 == 0 ? datum.value : ''" } }),
        y: q("temp", { title: "Anomaly (°C)" }),
        color: { condition: { test: "datum.temp > 0", value: "#d6604d" }, value: "#4393c3" },
      },
    },
  ],
  [
    "global-temperature-trend",
    "trend",
    "environmental/global-temperature",
    "Global warming trend (loess)",
    "Annual anomalies with a loess-smoothed trend line.",
    scatterWithFit("year", "temp", { x: "Year", y: "Anomaly (°C)" }, "loess", { axis: { format: "d" } }),
  ],
  [
    "iowa-electricity-sources",
    "composition",
    "environmental/iowa-electricity",
    "Iowa electricity by source",
    "Net generation from fossil fuels, nuclear and renewables in Iowa, stacked.",
    {
      mark: "area",
      encoding: {
        x: t("year", { timeUnit: "year", title: "Year" }),
        y: q("net_generation", { title: "Net generation (GWh)" }),
        color: n("source", { title: "Source" }),
      },
    },
  ],
  [
    "iowa-electricity-share",
    "composition",
    "environmental/iowa-electricity",
    "Share of Iowa electricity by source",
    "Each source's share of Iowa's net generation: renewables rising.",
    {
      mark: "area",
      encoding: {
        x: t("year", { timeUnit: "year", title: "Year" }),
        y: q("net_generation", { stack: "normalize", title: "Share of generation" }),
        color: n("source", { title: "Source" }),
      },
    },
  ],
  [
    "disaster-deaths-by-decade",
    "trend",
    "environmental/natural-disasters",
    "Disaster deaths by decade and type",
    "Deaths from natural disasters per decade since 1900, by disaster type.",
    {
      transform: [
        { filter: "datum.Entity != 'All natural disasters'" },
        { calculate: "floor(datum.Year / 10) * 10", as: "decade" },
      ],
      mark: "bar",
      encoding: {
        x: o("decade", { title: "Decade" }),
        y: q("Deaths", { aggregate: "sum", title: "Deaths" }),
        color: n("Entity", { title: "Type" }),
      },
    },
  ],
  [
    "disaster-deaths-by-type",
    "ranking",
    "environmental/natural-disasters",
    "Deadliest kinds of natural disaster",
    "Total deaths since 1900 by disaster type.",
    topBars("Entity", "Deaths", "sum", 12, { category: "Type", value: "Deaths since 1900" }, [
      { filter: "datum.Entity != 'All natural disasters'" },
    ]),
  ],
  [
    "disaster-deaths-all",
    "trend",
    "environmental/natural-disasters",
    "Deaths from all natural disasters",
    "Yearly deaths from all natural disasters, on a log scale.",
    {
      transform: [{ filter: "datum.Entity == 'All natural disasters' && datum.Deaths > 0" }],
      mark: "line",
      encoding: {
        x: q("Year", { axis: { format: "d" }, scale: { zero: false } }),
        y: q("Deaths", { scale: { type: "log" } }),
      },
    },
  ],
  [
    "wind-vector-field",
    "geographic",
    "environmental/wind-vectors",
    "Wind over western Europe",
    "Wind direction (wedge angle) and speed (colour) on a grid.",
    {
      transform: [{ filter: "datum.longitude % 1 < 0.3 && datum.latitude % 1 < 0.3" }],
      mark: { type: "point", shape: "wedge", filled: true },
      encoding: {
        x: q("longitude", { scale: { zero: false } }),
        y: q("latitude", { scale: { zero: false } }),
        angle: q("dir", { scale: { domain: [0, 360], range: [180, 540] } }),
        color: q("speed", { title: "Speed (m/s)" }),
        size: q("speed", { legend: null }),
      },
    },
  ],
  [
    "wind-speed-distribution",
    "distribution",
    "environmental/wind-vectors",
    "Wind speed distribution",
    "How grid points spread over wind speed.",
    histogram("speed", "Wind speed (m/s)", 30),
  ],

  // geographic
  [
    "us-airports-map",
    "geographic",
    "geographic/us-airports",
    "Airports of the United States",
    "Every US airport at its location (Albers USA projection).",
    pointMap(
      "longitude",
      "latitude",
      "albersUsa",
      { tooltip: [n("name"), n("city")] },
      { type: "circle", size: 6, opacity: 0.5 },
    ),
  ],
  [
    "us-airports-by-state",
    "ranking",
    "geographic/us-airports",
    "States with the most airports",
    "The 15 states with the most airports.",
    topBars("state", null, "count", 15, { category: "State", value: "Airports" }),
  ],
  [
    "us-state-capitals-map",
    "geographic",
    "geographic/us-state-capitals",
    "US state capitals",
    "Each state capital at its location, labelled.",
    {
      projection: { type: "albersUsa" },
      layer: [
        { mark: { type: "circle", color: "steelblue" }, encoding: { longitude: q("lon"), latitude: q("lat") } },
        {
          mark: { type: "text", dy: -8, fontSize: 8 },
          encoding: { longitude: q("lon"), latitude: q("lat"), text: n("city") },
        },
      ],
    },
  ],
  [
    "us-state-capitals-north-south",
    "ranking",
    "geographic/us-state-capitals",
    "State capitals from north to south",
    "State capitals ranked by latitude.",
    {
      height: { step: 12 },
      mark: "point",
      encoding: {
        y: n("city", { sort: "-x", title: "Capital" }),
        x: q("lat", { scale: { zero: false }, title: "Latitude (°N)" }),
        color: n("state", { legend: null }),
      },
    },
  ],
  [
    "earthquakes-world-map",
    "geographic",
    "geographic/earthquakes-week",
    "A week of earthquakes",
    "Every earthquake in one week, sized by magnitude.",
    pointMap(
      "longitude",
      "latitude",
      "equirectangular",
      { size: q("mag", { title: "Magnitude", scale: { domain: [0, 7] } }), color: q("depth", { title: "Depth (km)" }) },
      { type: "circle", opacity: 0.5 },
      [{ filter: "datum.mag != null && datum.mag >= 0" }],
    ),
  ],
  [
    "earthquakes-magnitude-distribution",
    "distribution",
    "geographic/earthquakes-week",
    "Earthquake magnitudes",
    "How a week's earthquakes spread over magnitude.",
    histogram("mag", "Magnitude", 30),
  ],
  [
    "earthquakes-depth-vs-magnitude",
    "relationship",
    "geographic/earthquakes-week",
    "Depth vs magnitude",
    "Earthquakes by depth and magnitude.",
    scatter(q("mag", { title: "Magnitude" }), q("depth", { title: "Depth (km)", scale: { reverse: true } }), {
      tooltip: [n("place")],
    }),
  ],
  [
    "earthquakes-per-day",
    "trend",
    "geographic/earthquakes-week",
    "Earthquakes per day",
    "Number of earthquakes recorded on each day of the week.",
    {
      mark: "bar",
      encoding: {
        x: o("time", { timeUnit: "utcmonthdate", title: "Day (UTC)" }),
        y: { aggregate: "count", type: "quantitative", title: "Earthquakes" },
      },
    },
  ],
  [
    "countries-map-by-area",
    "geographic",
    "geographic/countries-of-the-world",
    "Countries sized by area",
    "Each country at its centre, sized by land area and coloured by region.",
    pointMap(
      "longitude",
      "latitude",
      "equalEarth",
      { size: q("area_km2", { title: "Area (km²)" }), color: n("region", { title: "Region" }), tooltip: [n("name")] },
      { type: "circle", opacity: 0.6 },
    ),
  ],
  [
    "countries-per-region",
    "comparison",
    "geographic/countries-of-the-world",
    "Countries per region",
    "Number of countries and territories in each region.",
    {
      mark: "bar",
      encoding: {
        y: n("region", { sort: "-x", title: "Region" }),
        x: { aggregate: "count", type: "quantitative", title: "Countries" },
      },
    },
  ],
  [
    "countries-area-by-region",
    "distribution",
    "geographic/countries-of-the-world",
    "Country areas by region",
    "Spread of country areas in each region, log scale.",
    boxplot("region", "area_km2", { category: "Region", value: "Area (km²)" }, { type: "log" }),
  ],
  [
    "napoleon-march-route",
    "geographic",
    "geographic/napoleons-march",
    "Minard: Napoleon's march on Moscow",
    "The army's path in 1812, line width by surviving soldiers, tan advancing and black retreating.",
    {
      mark: "trail",
      encoding: {
        x: q("lon", { scale: { zero: false }, title: "Longitude" }),
        y: q("lat", { scale: { zero: false }, title: "Latitude" }),
        size: q("size", { title: "Soldiers", scale: { range: [1, 40] } }),
        color: n("direction", { scale: { domain: ["A", "R"], range: ["#d9b382", "#222222"] }, title: "Direction" }),
        detail: n("division"),
      },
    },
  ],
  [
    "napoleon-army-size",
    "trend",
    "geographic/napoleons-march",
    "Napoleon's army shrinking along the route",
    "Surviving soldiers by longitude on the way to Moscow and back.",
    {
      mark: { type: "line", point: true },
      encoding: {
        x: q("lon", { scale: { zero: false }, title: "Longitude" }),
        y: q("size", { title: "Soldiers" }),
        color: n("direction", { title: "Direction" }),
        detail: n("division"),
      },
    },
  ],
  [
    "us-zipcodes-map",
    "geographic",
    "geographic/us-zipcodes",
    "Every US ZIP code",
    "42,000 ZIP code centres: the map draws itself from where people live.",
    pointMap("longitude", "latitude", "albersUsa", {}, { type: "square", size: 1, opacity: 0.4 }),
  ],
  [
    "us-zipcodes-by-state",
    "ranking",
    "geographic/us-zipcodes",
    "States with the most ZIP codes",
    "The 15 states with the most ZIP codes.",
    topBars("state", null, "count", 15, { category: "State", value: "ZIP codes" }),
  ],

  // healthcare
  [
    "nightingale-rose",
    "composition",
    "healthcare/nightingales-rose",
    "Nightingale's rose",
    "Monthly deaths by cause in the Crimean War as a polar area diagram.",
    {
      transform: [folded(["disease", "wounds", "other"], ["cause", "deaths"])],
      mark: { type: "arc", stroke: "white" },
      encoding: {
        theta: o("date", { timeUnit: "yearmonth" }),
        radius: q("deaths", { scale: { type: "sqrt", zero: true } }),
        color: n("cause", { title: "Cause" }),
      },
    },
  ],
  [
    "nightingale-deaths-by-cause",
    "trend",
    "healthcare/nightingales-rose",
    "Crimean War deaths by cause",
    "Monthly deaths from disease, wounds and other causes: disease killed far more.",
    {
      transform: [folded(["disease", "wounds", "other"], ["cause", "deaths"])],
      mark: "line",
      encoding: {
        x: t("date", { title: "Month" }),
        y: q("deaths", { title: "Deaths" }),
        color: n("cause", { title: "Cause" }),
      },
    },
  ],
  [
    "infant-mortality-by-race",
    "trend",
    "healthcare/us-infant-mortality-by-race",
    "US infant mortality by race",
    "Infant deaths per 1,000 live births for black and white infants, 1915–2013.",
    {
      mark: "line",
      encoding: {
        x: q("year", { axis: { format: "d" }, scale: { zero: false } }),
        y: q("infant_mortality_rate", { title: "Deaths per 1,000 births" }),
        color: n("race", { title: "Race" }),
      },
    },
  ],
  [
    "infant-mortality-gap",
    "trend",
    "healthcare/us-infant-mortality-by-race",
    "Black–white infant mortality ratio",
    "Ratio of black to white infant mortality: falling rates, a persistent gap.",
    {
      transform: [
        { pivot: "race", value: "infant_mortality_rate", groupby: ["year"] },
        { calculate: "datum.black / datum.white", as: "ratio" },
      ],
      mark: "line",
      encoding: {
        x: q("year", { axis: { format: "d" }, scale: { zero: false } }),
        y: q("ratio", { title: "Black / white ratio", scale: { zero: false } }),
      },
    },
  ],
  [
    "obesity-by-state",
    "ranking",
    "healthcare/us-obesity-by-state",
    "Adult obesity by state",
    "US states ranked by adult obesity rate.",
    {
      height: { step: 12 },
      mark: "bar",
      encoding: {
        y: n("state", { sort: "-x", title: "State" }),
        x: q("rate", { axis: { format: "%" }, title: "Adults with obesity" }),
      },
    },
  ],
  [
    "obesity-distribution",
    "distribution",
    "healthcare/us-obesity-by-state",
    "Spread of state obesity rates",
    "How US states spread over adult obesity rate.",
    histogram("rate", "Adults with obesity", 12),
  ],
  [
    "antibiotics-mic",
    "comparison",
    "healthcare/antibiotic-effectiveness",
    "Burtin's antibiotics",
    "Minimum inhibitory concentration of three antibiotics against each bacterium (log scale; lower is more effective).",
    {
      transform: [folded(["Penicillin", "Streptomycin", "Neomycin"], ["antibiotic", "mic"])],
      mark: { type: "point", filled: true, size: 60 },
      encoding: {
        y: n("Bacteria", { title: null }),
        x: q("mic", { scale: { type: "log" }, title: "MIC (µg/ml)" }),
        color: n("antibiotic", { title: "Antibiotic" }),
        shape: n("Gram_Staining", { title: "Gram stain" }),
      },
    },
  ],
  [
    "antibiotics-penicillin-gram",
    "comparison",
    "healthcare/antibiotic-effectiveness",
    "Penicillin and Gram staining",
    "Penicillin works on Gram-positive bacteria: its MIC by Gram stain (log scale).",
    {
      mark: { type: "tick", thickness: 3 },
      encoding: {
        x: q("Penicillin", { scale: { type: "log" }, title: "Penicillin MIC (µg/ml)" }),
        y: n("Gram_Staining", { title: "Gram stain" }),
        color: n("Gram_Staining", { legend: null }),
      },
    },
  ],
  [
    "physicians-vs-life-expectancy",
    "relationship",
    "healthcare/health-systems",
    "Physicians and life expectancy",
    "Countries by physicians per 1,000 people and life expectancy at birth.",
    scatter(
      q("physicians_per_1000", { title: "Physicians per 1,000", scale: { type: "sqrt" } }),
      q("life_expectancy", { title: "Life expectancy (years)", scale: { zero: false } }),
      { color: n("region", { title: "Region" }), tooltip: [n("country")] },
      [{ filter: "datum.physicians_per_1000 != null && datum.life_expectancy != null" }],
    ),
  ],
  [
    "infant-mortality-vs-life-expectancy",
    "relationship",
    "healthcare/health-systems",
    "Infant mortality and life expectancy",
    "Countries by infant mortality and life expectancy.",
    scatter(
      q("infant_mortality", { title: "Infant deaths per 1,000 births" }),
      q("life_expectancy", { title: "Life expectancy (years)", scale: { zero: false } }),
      { tooltip: [n("country")] },
      [{ filter: "datum.infant_mortality != null && datum.life_expectancy != null" }],
    ),
  ],
  [
    "life-expectancy-by-region",
    "distribution",
    "healthcare/health-systems",
    "Life expectancy by region",
    "Spread of life expectancy at birth in each Factbook region.",
    boxplot("region", "life_expectancy", { category: "Region", value: "Life expectancy (years)" }, { zero: false }),
  ],
  [
    "gapminder-health-wealth",
    "relationship",
    "healthcare/gapminder-health-income",
    "Health and wealth of nations",
    "Income per person (log) against life expectancy, sized by population.",
    scatter(
      q("income", { scale: { type: "log" }, title: "Income per person (USD)" }),
      q("health", { scale: { zero: false }, title: "Life expectancy (years)" }),
      {
        size: q("population", { title: "Population" }),
        color: n("region", { title: "Region" }),
        tooltip: [n("country")],
      },
    ),
  ],
  [
    "gapminder-health-by-region",
    "comparison",
    "healthcare/gapminder-health-income",
    "Mean life expectancy by region",
    "Average life expectancy of countries in each region.",
    {
      mark: "bar",
      encoding: {
        y: n("region", { sort: "-x", title: "Region" }),
        x: q("health", { aggregate: "mean", title: "Mean life expectancy (years)" }),
      },
    },
  ],
  [
    "gapminder-life-expectancy-trend",
    "trend",
    "healthcare/gapminder",
    "Life expectancy 1955–2005 by region",
    "Mean life expectancy of each world region every five years.",
    {
      transform: [{ calculate: GAPMINDER_REGION, as: "region" }],
      mark: { type: "line", point: true },
      encoding: {
        x: o("year", { title: "Year" }),
        y: q("life_expect", { aggregate: "mean", title: "Mean life expectancy", scale: { zero: false } }),
        color: n("region", { title: "Region" }),
      },
    },
  ],
  [
    "gapminder-fertility-vs-life-2005",
    "relationship",
    "healthcare/gapminder",
    "Fertility and life expectancy, 2005",
    "Countries in 2005 by children per woman and life expectancy, sized by population.",
    scatter(
      q("fertility", { title: "Children per woman" }),
      q("life_expect", { title: "Life expectancy", scale: { zero: false } }),
      { size: q("pop", { title: "Population" }), color: n("region", { title: "Region" }), tooltip: [n("country")] },
      [{ filter: "datum.year == 2005" }, { calculate: GAPMINDER_REGION, as: "region" }],
    ),
  ],
  [
    "gapminder-fertility-trend",
    "trend",
    "healthcare/gapminder",
    "Falling fertility 1955–2005",
    "Mean children per woman in each world region over time.",
    {
      transform: [{ calculate: GAPMINDER_REGION, as: "region" }],
      mark: "line",
      encoding: {
        x: o("year", { title: "Year" }),
        y: q("fertility", { aggregate: "mean", title: "Children per woman" }),
        color: n("region", { title: "Region" }),
      },
    },
  ],

  // linguistic
  [
    "afinn-valence-counts",
    "distribution",
    "linguistic/afinn-111",
    "Words per sentiment score",
    "How many AFINN words carry each valence from −5 to +5.",
    {
      mark: "bar",
      encoding: {
        x: o("valence", { title: "Valence" }),
        y: { aggregate: "count", type: "quantitative", title: "Words" },
        color: q("valence", { scale: { scheme: "redblue", domainMid: 0 }, legend: null }),
      },
    },
  ],
  [
    "afinn-positive-negative",
    "composition",
    "linguistic/afinn-111",
    "Positive vs negative words in AFINN",
    "Share of the lexicon that is negative, neutral and positive.",
    {
      transform: [
        { calculate: "datum.valence > 0 ? 'positive' : datum.valence < 0 ? 'negative' : 'neutral'", as: "polarity" },
      ],
      mark: "arc",
      encoding: { theta: { aggregate: "count", type: "quantitative" }, color: n("polarity", { title: "Polarity" }) },
    },
  ],
  [
    "country-name-length-by-language",
    "comparison",
    "linguistic/country-name-translations",
    "Length of country names by language",
    "Mean length in characters of country names in each language.",
    {
      transform: [{ calculate: "length(datum.common)", as: "chars" }],
      mark: "bar",
      encoding: {
        y: n("language", { sort: "-x", title: "Language (ISO 639-3)" }),
        x: q("chars", { aggregate: "mean", title: "Mean characters" }),
      },
    },
  ],
  [
    "country-names-same-as-english",
    "ranking",
    "linguistic/country-name-translations",
    "Country names spelled as in English",
    "Share of country names identical to the English name, per language.",
    {
      transform: [{ calculate: "datum.common == datum.english ? 1 : 0", as: "same" }],
      mark: "bar",
      encoding: {
        y: n("language", { sort: "-x", title: "Language (ISO 639-3)" }),
        x: q("same", { aggregate: "mean", axis: { format: "%" }, title: "Same as English" }),
      },
    },
  ],
  [
    "colour-names-brightness",
    "distribution",
    "linguistic/colour-names",
    "How bright are named colours?",
    "Distribution of perceived brightness of all named colours.",
    {
      transform: [{ calculate: "(datum.red * 299 + datum.green * 587 + datum.blue * 114) / 1000", as: "brightness" }],
      ...histogram("brightness", "Perceived brightness (0–255)", 32),
    },
  ],
  [
    "colour-names-red-blue",
    "relationship",
    "linguistic/colour-names",
    "Named colours by red and blue",
    "A sample of named colours placed by red and blue components, drawn in their own colour.",
    {
      transform: [{ sample: 3000 }],
      mark: { type: "circle", size: 20 },
      encoding: {
        x: q("red", { title: "Red" }),
        y: q("blue", { title: "Blue" }),
        color: n("hex", { scale: null }),
        tooltip: [n("name"), n("hex")],
      },
    },
  ],
  [
    "colour-names-first-words",
    "ranking",
    "linguistic/colour-names",
    "Most common first words in colour names",
    "The 20 words that most often start a colour name.",
    topBars("first_word", null, "count", 20, { category: "First word", value: "Colour names" }, [
      { calculate: "split(datum.name, ' ')[0]", as: "first_word" },
    ]),
  ],
  [
    "emoji-keyword-counts",
    "distribution",
    "linguistic/emoji-keywords",
    "Keywords per emoji",
    "How many English keywords emojilib lists per emoji.",
    {
      mark: "bar",
      encoding: {
        x: o("keyword_count", { title: "Keywords" }),
        y: { aggregate: "count", type: "quantitative", title: "Emoji" },
      },
    },
  ],
  [
    "emoji-most-keywords",
    "ranking",
    "linguistic/emoji-keywords",
    "Emoji with the most keywords",
    "The 15 emoji with the most keywords.",
    topBars("name", "keyword_count", "sum", 15, { category: "Emoji", value: "Keywords" }),
  ],

  // quirky
  [
    "engineers-vs-hurricanes",
    "relationship",
    "quirky/engineers-and-hurricanes",
    "Engineers and hurricanes",
    "US states by share of engineers and number of hurricanes: correlation is not causation.",
    scatter(
      q("engineers", { axis: { format: "%" }, title: "Engineers in workforce" }),
      q("hurricanes", { title: "Hurricanes" }),
      { tooltip: [n("state")] },
    ),
  ],
  [
    "hurricanes-by-state",
    "ranking",
    "quirky/engineers-and-hurricanes",
    "Hurricanes by state",
    "States that were hit by hurricanes, ranked.",
    {
      transform: [{ filter: "datum.hurricanes > 0" }],
      mark: "bar",
      encoding: { y: n("state", { sort: "-x", title: "State" }), x: q("hurricanes", { title: "Hurricanes" }) },
    },
  ],
  [
    "venus-residuals-strip",
    "distribution",
    "quirky/venus-semidiameters",
    "Herndon's Venus residuals",
    "Fifteen residuals with their mean: the outlier Chauvenet's criterion rejects stands out.",
    {
      layer: [
        {
          mark: { type: "tick", thickness: 2, size: 30 },
          encoding: { x: q("residual", { title: "Residual (arc seconds)" }) },
        },
        { mark: { type: "rule", color: "firebrick" }, encoding: { x: q("residual", { aggregate: "mean" }) } },
      ],
    },
  ],
  [
    "venus-residuals-by-observation",
    "comparison",
    "quirky/venus-semidiameters",
    "Venus residual per observation",
    "Each of Herndon's 15 observations, above or below zero.",
    {
      mark: "bar",
      encoding: {
        x: o("observation", { title: "Observation" }),
        y: q("residual", { title: "Residual (arc seconds)" }),
        color: { condition: { test: "datum.residual < 0", value: "#d6604d" }, value: "#4393c3" },
      },
    },
  ],
  [
    "anscombe-quartet",
    "relationship",
    "quirky/anscombes-quartet",
    "Anscombe's quartet",
    "Four series with the same regression line and very different shapes.",
    {
      facet: { column: n("Series") },
      spec: {
        width: 120,
        height: 120,
        layer: [
          {
            mark: { type: "point", filled: true },
            encoding: { x: q("X", { scale: { zero: false } }), y: q("Y", { scale: { zero: false } }) },
          },
          {
            transform: [{ regression: "Y", on: "X" }],
            mark: { type: "line", color: "firebrick" },
            encoding: { x: q("X"), y: q("Y") },
          },
        ],
      },
    },
  ],
  [
    "anscombe-same-means",
    "comparison",
    "quirky/anscombes-quartet",
    "Anscombe's series share their mean",
    "Mean of Y in each of Anscombe's four series, with its standard deviation as an error bar.",
    {
      layer: [
        { mark: "bar", encoding: { x: n("Series"), y: q("Y", { aggregate: "mean", title: "Mean Y" }) } },
        {
          mark: { type: "errorbar", extent: "stdev" },
          encoding: { x: n("Series"), y: q("Y", { title: "Mean Y (± 1 standard deviation)" }) },
        },
      ],
    },
  ],
  [
    "ffq-respondent-traits",
    "comparison",
    "quirky/food-frequency-questionnaire",
    "Who answered the food questionnaire",
    "Share of FiveThirtyEight respondents with each trait: innie belly button, left-handed, cat or dog owner, smoker, atheist.",
    {
      transform: [folded(["innie", "left_hand", "cat", "dog", "ever_smoked", "atheist"], ["trait", "yes"])],
      mark: "bar",
      encoding: {
        y: n("trait", { sort: "-x", title: "Trait" }),
        x: q("yes", { aggregate: "mean", axis: { format: "%" }, title: "Share of respondents" }),
      },
    },
  ],
  [
    "ffq-eggs-and-cancer",
    "comparison",
    "quirky/food-frequency-questionnaire",
    "Egg eating and cancer (spurious)",
    "How often respondents with and without a cancer history eat eggs: the kind of comparison that produces absurd nutrition headlines.",
    {
      transform: [{ calculate: "datum.cancer == 1 ? 'had cancer' : 'no cancer'", as: "history" }],
      mark: { type: "boxplot" },
      encoding: {
        x: n("history", { title: null }),
        y: q("eggsfreq", { title: "Egg frequency (questionnaire scale)" }),
      },
    },
  ],

  // wild
  [
    "penguins-flipper-vs-mass",
    "relationship",
    "wild/palmer-penguins",
    "Penguin flipper length vs body mass",
    "Palmer penguins by flipper length and body mass, coloured by species.",
    scatter(q("Flipper Length (mm)", { scale: { zero: false } }), q("Body Mass (g)", { scale: { zero: false } }), {
      color: n("Species"),
      shape: n("Island"),
    }),
  ],
  [
    "penguins-mass-by-species",
    "distribution",
    "wild/palmer-penguins",
    "Penguin body mass by species",
    "Spread of body mass for Adelie, Chinstrap and Gentoo penguins.",
    boxplot("Species", "Body Mass (g)", { category: "Species", value: "Body mass (g)" }, { zero: false }),
  ],
  [
    "penguins-species-by-island",
    "composition",
    "wild/palmer-penguins",
    "Penguin species on each island",
    "How many penguins of each species were measured on each island.",
    {
      mark: "bar",
      encoding: {
        x: n("Island"),
        y: { aggregate: "count", type: "quantitative", title: "Penguins" },
        color: n("Species"),
      },
    },
  ],
  [
    "wildlife-strikes-top-species",
    "ranking",
    "wild/wildlife-strikes",
    "Wildlife most often struck by aircraft",
    "The 15 species involved in the most aircraft strikes.",
    topBars("Wildlife Species", null, "count", 15, { category: "Species", value: "Strikes" }, [
      {
        filter:
          "datum['Wildlife Species'] != 'Unknown bird - small' && datum['Wildlife Species'] != 'Unknown bird - medium'",
      },
    ]),
  ],
  [
    "wildlife-strikes-flight-phase",
    "comparison",
    "wild/wildlife-strikes",
    "Strikes by phase of flight",
    "When in a flight wildlife strikes happen.",
    {
      mark: "bar",
      encoding: {
        y: n("Phase of flight", { sort: "-x" }),
        x: { aggregate: "count", type: "quantitative", title: "Strikes" },
      },
    },
  ],
  [
    "wildlife-strikes-per-year",
    "trend",
    "wild/wildlife-strikes",
    "Wildlife strikes per year",
    "Reported wildlife strikes in each year.",
    {
      mark: { type: "line", point: true },
      encoding: {
        x: t("Flight Date", { timeUnit: "year", title: "Year" }),
        y: { aggregate: "count", type: "quantitative", title: "Strikes" },
      },
    },
  ],
  [
    "wildlife-strikes-damage-by-size",
    "composition",
    "wild/wildlife-strikes",
    "Damage by size of animal",
    "Share of strikes causing each level of damage, by wildlife size.",
    {
      transform: [{ filter: "datum['Wildlife Size'] != null && datum['Effect Amount of damage'] != null" }],
      mark: "bar",
      encoding: {
        x: n("Wildlife Size", { sort: ["Small", "Medium", "Large"] }),
        y: { aggregate: "count", type: "quantitative", stack: "normalize", title: "Share of strikes" },
        color: n("Effect Amount of damage", { title: "Damage" }),
      },
    },
  ],
  [
    "species-habitat-by-county",
    "distribution",
    "wild/species-habitat",
    "Year-round habitat share per county",
    "Spread, across US counties, of the share of land that is year-round habitat for four species.",
    boxplot("common_name", "habitat_yearround_pct", { category: "Species", value: "Share of county that is habitat" }),
  ],
  [
    "species-counties-with-habitat",
    "ranking",
    "wild/species-habitat",
    "Counties with habitat for each species",
    "Number of counties where each species has any year-round habitat.",
    topBars("common_name", null, "count", 4, { category: "Species", value: "Counties with habitat" }, [
      { filter: "datum.habitat_yearround_pct > 0" },
    ]),
  ],

  // urban
  [
    "la-riots-map",
    "geographic",
    "urban/la-riots-deaths",
    "Where people died in the 1992 LA riots",
    "Location of each death, coloured by its circumstances.",
    pointMap(
      "longitude",
      "latitude",
      "mercator",
      { color: n("type", { title: "Circumstances" }), tooltip: [n("neighborhood"), q("age")] },
      { type: "circle", size: 40, opacity: 0.8 },
    ),
  ],
  [
    "la-riots-by-race-gender",
    "comparison",
    "urban/la-riots-deaths",
    "LA riots deaths by race and gender",
    "Deaths by race, split by gender.",
    {
      mark: "bar",
      encoding: {
        y: n("race", { sort: "-x", title: "Race" }),
        x: { aggregate: "count", type: "quantitative", title: "Deaths" },
        color: n("gender", { title: "Gender" }),
      },
    },
  ],
  [
    "la-riots-ages",
    "distribution",
    "urban/la-riots-deaths",
    "Ages of the dead, LA 1992",
    "Ages of the people who died during the riots.",
    histogram("age", "Age", 15),
  ],
  [
    "london-boroughs-map",
    "geographic",
    "urban/london-boroughs",
    "London boroughs",
    "The centre of each London borough, labelled.",
    {
      projection: { type: "mercator" },
      layer: [
        { mark: "circle", encoding: { longitude: q("cx"), latitude: q("cy") } },
        {
          mark: { type: "text", dy: -7, fontSize: 7 },
          encoding: { longitude: q("cx"), latitude: q("cy"), text: n("name") },
        },
      ],
    },
  ],
  [
    "london-boroughs-distance",
    "ranking",
    "urban/london-boroughs",
    "Boroughs by distance from Charing Cross",
    "Straight-line distance of each borough centre from Charing Cross (equirectangular approximation).",
    {
      transform: [
        {
          calculate:
            "6371 * sqrt(pow((datum.cx + 0.1276) * PI / 180 * cos(51.5072 * PI / 180), 2) + pow((datum.cy - 51.5072) * PI / 180, 2))",
          as: "km",
        },
      ],
      mark: "bar",
      encoding: { y: n("name", { sort: "-x", title: "Borough" }), x: q("km", { title: "Distance (km)" }) },
    },
  ],
  [
    "urban-share-by-region",
    "distribution",
    "urban/urbanization",
    "Urban population share by region",
    "Spread of the share of population living in cities, per region.",
    boxplot("region", "urban_pct", { category: "Region", value: "Urban population (%)" }),
  ],
  [
    "urban-share-vs-growth",
    "relationship",
    "urban/urbanization",
    "How urban vs how fast urbanising",
    "Countries by urban share and annual rate of urbanisation: less urban countries urbanise fastest.",
    scatter(
      q("urban_pct", { title: "Urban population (%)" }),
      q("urbanization_rate", { title: "Urbanisation rate (%/year)" }),
      { color: n("region", { title: "Region" }), tooltip: [n("country")] },
    ),
  ],
  [
    "busiest-origin-airports",
    "ranking",
    "urban/airport-routes",
    "Busiest airports by departing flights",
    "The 20 airports with the most departing flights.",
    topBars("origin", "count", "sum", 20, { category: "Airport", value: "Departing flights" }),
  ],
  [
    "hub-route-matrix",
    "matrix",
    "urban/airport-routes",
    "Flights between major hubs",
    "Number of flights between 15 of the largest US hubs.",
    {
      transform: [{ filter: { field: "origin", oneOf: HUBS } }, { filter: { field: "destination", oneOf: HUBS } }],
      mark: "rect",
      encoding: {
        x: n("destination", { title: "To" }),
        y: n("origin", { title: "From" }),
        color: q("count", { title: "Flights" }),
      },
    },
  ],

  // economic_billionaires
  [
    "highest-gini",
    "ranking",
    "economic_billionaires/income-inequality",
    "Most unequal countries (Gini)",
    "The 20 countries with the highest Gini index of family income.",
    topBars("country", "gini", "sum", 20, { category: "Country", value: "Gini index" }, [
      { filter: "datum.gini != null" },
    ]),
  ],
  [
    "top-vs-bottom-income-share",
    "relationship",
    "economic_billionaires/income-inequality",
    "Income share of the richest vs poorest 10%",
    "Countries by the share of income going to the top and the bottom tenth of households.",
    scatter(
      q("bottom_10_pct_share", { title: "Poorest 10% share (%)" }),
      q("top_10_pct_share", { title: "Richest 10% share (%)" }),
      { color: n("region"), tooltip: [n("country")] },
      [{ filter: "datum.top_10_pct_share != null && datum.bottom_10_pct_share != null" }],
    ),
  ],
  [
    "largest-stock-markets",
    "ranking",
    "economic_billionaires/stock-market-value",
    "Largest stock markets",
    "The 15 countries with the most valuable listed shares.",
    topBars("country", "market_value_usd", "sum", 15, { category: "Country", value: "Market value (USD)" }),
  ],
  [
    "stock-market-value-by-region",
    "composition",
    "economic_billionaires/stock-market-value",
    "Stock market value by region",
    "Share of the world's listed-share value in each Factbook region.",
    {
      mark: "arc",
      encoding: { theta: q("market_value_usd", { aggregate: "sum" }), color: n("region", { title: "Region" }) },
    },
  ],
  [
    "tech-stock-prices",
    "trend",
    "economic_billionaires/tech-stocks",
    "Big tech share prices 2000–2010",
    "Monthly share prices of Microsoft, Amazon, IBM, Google and Apple.",
    {
      mark: "line",
      encoding: {
        x: t("date", { title: "Date" }),
        y: q("price", { title: "Price (USD)" }),
        color: n("symbol", { title: "Symbol" }),
      },
    },
  ],
  [
    "tech-stocks-indexed",
    "trend",
    "economic_billionaires/tech-stocks",
    "Big tech shares indexed to their first month",
    "Each share price divided by its first price in the data: growth, not price level.",
    {
      transform: [
        { window: [{ op: "first_value", field: "price", as: "first" }], groupby: ["symbol"], frame: [null, null] },
        { calculate: "datum.price / datum.first", as: "indexed" },
      ],
      mark: "line",
      encoding: {
        x: t("date", { title: "Date" }),
        y: q("indexed", { scale: { type: "log" }, title: "Price / first price" }),
        color: n("symbol", { title: "Symbol" }),
      },
    },
  ],
  [
    "sp500-index",
    "trend",
    "economic_billionaires/sp500",
    "S&P 500 2000–2010",
    "Monthly close of the S&P 500 index.",
    {
      mark: { type: "area", line: true, opacity: 0.4 },
      encoding: { x: t("date", { title: "Date" }), y: q("price", { title: "Index" }) },
    },
  ],
  [
    "sp500-monthly-returns",
    "distribution",
    "economic_billionaires/sp500",
    "S&P 500 monthly returns",
    "Distribution of month-on-month changes of the S&P 500.",
    {
      transform: [
        { window: [{ op: "lag", field: "price", as: "previous" }] },
        { filter: "datum.previous != null" },
        { calculate: "(datum.price / datum.previous - 1) * 100", as: "return_pct" },
      ],
      ...histogram("return_pct", "Monthly change (%)", 25),
    },
  ],

  // economic_boards
  [
    "largest-occupations-2000",
    "ranking",
    "economic_boards/us-occupations-1850-2000",
    "Largest US occupations in 2000",
    "The 15 occupations with the largest share of US workers in 2000.",
    topBars("job", "perc", "sum", 15, { category: "Occupation", value: "Share of workforce" }, [
      { filter: "datum.year == 2000" },
    ]),
  ],
  [
    "workforce-by-sex",
    "trend",
    "economic_boards/us-occupations-1850-2000",
    "US workers by sex 1850–2000",
    "Number of workers recorded in all occupations by sex each decade.",
    {
      mark: { type: "line", point: true },
      encoding: {
        x: o("year", { title: "Census year" }),
        y: q("count", { aggregate: "sum", title: "Workers" }),
        color: n("sex", { title: "Sex" }),
      },
    },
  ],
  [
    "farmers-decline",
    "trend",
    "economic_boards/us-occupations-1850-2000",
    "The decline of farming",
    "Share of the US workforce working as farmers and farm labourers, 1850–2000.",
    {
      transform: [{ filter: "indexof(datum.job, 'Farm') == 0" }],
      mark: "area",
      encoding: {
        x: o("year", { title: "Census year" }),
        y: q("perc", { aggregate: "sum", axis: { format: "%" }, title: "Share of workforce" }),
        color: n("job", { title: "Occupation" }),
      },
    },
  ],
  [
    "us-nonfarm-employment",
    "trend",
    "economic_boards/us-employment",
    "US nonfarm employment",
    "Monthly nonfarm employment through the 2008 recession and recovery.",
    {
      mark: "line",
      encoding: {
        x: t("month", { title: "Month" }),
        y: q("nonfarm", { scale: { zero: false }, title: "Employees (thousands)" }),
      },
    },
  ],
  [
    "us-jobs-monthly-change",
    "trend",
    "economic_boards/us-employment",
    "Jobs gained or lost each month",
    "Monthly change in nonfarm employment, losses in red.",
    {
      mark: "bar",
      encoding: {
        x: t("month", { title: "Month" }),
        y: q("nonfarm_change", { title: "Change (thousands)" }),
        color: { condition: { test: "datum.nonfarm_change < 0", value: "#d6604d" }, value: "#4393c3" },
      },
    },
  ],
  [
    "us-employment-sectors",
    "composition",
    "economic_boards/us-employment",
    "US employment by sector",
    "Monthly employment in major sectors, stacked.",
    {
      transform: [
        folded(
          [
            "construction",
            "manufacturing",
            "retail_trade",
            "financial_activities",
            "professional_and_business_services",
            "education_and_health_services",
            "leisure_and_hospitality",
            "government",
          ],
          ["sector", "employees"],
        ),
      ],
      mark: "area",
      encoding: {
        x: t("month", { title: "Month" }),
        y: q("employees", { title: "Employees (thousands)" }),
        color: n("sector", { title: "Sector" }),
      },
    },
  ],
  [
    "unemployment-by-industry-stream",
    "composition",
    "economic_boards/unemployment-by-industry",
    "Unemployed workers by industry",
    "Monthly unemployed workers in each industry, 2000–2010, stacked.",
    {
      mark: "area",
      encoding: {
        x: t("date", { timeUnit: "yearmonth", title: "Month" }),
        y: q("count", { aggregate: "sum", title: "Unemployed" }),
        color: n("series", { title: "Industry" }),
      },
    },
  ],
  [
    "unemployment-rate-by-industry",
    "comparison",
    "economic_boards/unemployment-by-industry",
    "Mean unemployment rate by industry",
    "Average unemployment rate in each industry over 2000–2010.",
    {
      mark: "bar",
      encoding: {
        y: n("series", { sort: "-x", title: "Industry" }),
        x: q("rate", { aggregate: "mean", title: "Mean unemployment rate (%)" }),
      },
    },
  ],
  [
    "cps-education-vs-wage",
    "relationship",
    "economic_boards/cps-wages-1985",
    "Education and wages, 1985",
    "Hourly wage against years of education, with a regression line.",
    scatterWithFit("education", "wage", { x: "Years of education", y: "Hourly wage (USD)" }, "regression"),
  ],
  [
    "cps-wage-by-occupation",
    "distribution",
    "economic_boards/cps-wages-1985",
    "Wages by occupation, 1985",
    "Spread of hourly wages in each occupation group.",
    boxplot("occupation", "wage", { category: "Occupation", value: "Hourly wage (USD)" }),
  ],
  [
    "cps-wage-gender-union",
    "comparison",
    "economic_boards/cps-wages-1985",
    "Wages by gender and union membership",
    "Mean hourly wage of men and women, in and out of unions.",
    {
      transform: [{ calculate: "datum.union == 1 ? 'union' : 'non-union'", as: "membership" }],
      mark: "bar",
      encoding: {
        x: n("gender", { title: "Gender" }),
        xOffset: n("membership"),
        y: q("wage", { aggregate: "mean", title: "Mean hourly wage (USD)" }),
        color: n("membership", { title: "Membership" }),
      },
    },
  ],

  // economic_housing
  [
    "boston-rooms-vs-value",
    "relationship",
    "economic_housing/boston-house-prices",
    "Rooms and home value in Boston",
    "Median home value against average rooms per dwelling, one point per tract.",
    scatterWithFit("rm", "medv", { x: "Average rooms", y: "Median value ($1000s)" }, "regression"),
  ],
  [
    "boston-lstat-vs-value",
    "relationship",
    "economic_housing/boston-house-prices",
    "Lower-status population and home value",
    "Median home value against the share of lower-status population, with a loess curve.",
    scatterWithFit("lstat", "medv", { x: "Lower-status population (%)", y: "Median value ($1000s)" }, "loess"),
  ],
  [
    "boston-value-distribution",
    "distribution",
    "economic_housing/boston-house-prices",
    "Boston median home values",
    "Distribution of tract median home values (note the cap at $50,000).",
    histogram("medv", "Median value ($1000s)", 25),
  ],
  [
    "boston-corrected-values",
    "relationship",
    "economic_housing/boston-house-prices-corrected",
    "Original vs corrected Boston values",
    "Original median values against Gilley & Pace's corrected ones: the points off the diagonal were wrong.",
    scatter(
      q("medv", { title: "Original median value ($1000s)" }),
      q("cmedv", { title: "Corrected median value ($1000s)" }),
    ),
  ],
  [
    "boston-charles-river",
    "distribution",
    "economic_housing/boston-house-prices-corrected",
    "Homes by the Charles River",
    "Corrected median values of tracts bounding the Charles River and the rest.",
    {
      transform: [{ calculate: "datum.chas == 1 ? 'on the river' : 'elsewhere'", as: "river" }],
      ...boxplot("river", "cmedv", { category: "Charles River", value: "Corrected median value ($1000s)" }),
    },
  ],
  [
    "household-income-bands-by-state",
    "composition",
    "economic_housing/us-household-income",
    "Household income bands by state",
    "Share of households in each income band, state by state (ACS 2013).",
    {
      height: { step: 12 },
      mark: "bar",
      encoding: {
        y: n("name", { title: "State" }),
        x: q("pct", { stack: "normalize", title: "Share of households" }),
        color: o("group", {
          title: "Income band (USD)",
          sort: [
            "<10000",
            "10000 to 14999",
            "15000 to 24999",
            "25000 to 34999",
            "35000 to 49999",
            "50000 to 74999",
            "75000 to 99999",
            "100000 to 149999",
            "150000 to 199999",
            "200000+",
          ],
          scale: { scheme: "viridis" },
        }),
      },
    },
  ],
  [
    "richest-households-by-state",
    "ranking",
    "economic_housing/us-household-income",
    "States with most $200k+ households",
    "States ranked by share of households earning $200,000 or more.",
    {
      height: { step: 12 },
      transform: [{ filter: "datum.group == '200000+'" }],
      mark: "bar",
      encoding: {
        y: n("name", { sort: "-x", title: "State" }),
        x: q("pct", { axis: { format: "%" }, title: "Households earning $200k+" }),
        color: n("region", { title: "Region" }),
      },
    },
  ],

  // retail
  [
    "gas-price-vs-driving",
    "relationship",
    "retail/gas-prices-and-driving",
    "Driving and gas prices",
    "A connected scatterplot: miles driven per person against gasoline price, year by year.",
    {
      layer: [
        {
          mark: { type: "line", point: true },
          encoding: {
            x: q("miles", { scale: { zero: false }, title: "Miles driven per person" }),
            y: q("gas", { scale: { zero: false }, title: "Gas price ($/gallon, inflation-adjusted)" }),
            order: q("year"),
          },
        },
        {
          mark: { type: "text", dx: 12, fontSize: 8 },
          transform: [{ filter: "datum.year % 10 == 0" }],
          encoding: { x: q("miles"), y: q("gas"), text: n("year") },
        },
      ],
    },
  ],
  [
    "gas-price-trend",
    "trend",
    "retail/gas-prices-and-driving",
    "US gasoline price 1956–2010",
    "Inflation-adjusted retail gasoline price per gallon.",
    {
      mark: "line",
      encoding: {
        x: q("year", { axis: { format: "d" }, scale: { zero: false } }),
        y: q("gas", { title: "Price ($/gallon)" }),
      },
    },
  ],
  [
    "playfair-wheat-and-wages",
    "trend",
    "retail/wheat-prices-and-wages",
    "Playfair: wheat price and wages",
    "Price of a quarter of wheat (bars) and a mechanic's weekly wage (line), 1565–1821.",
    {
      layer: [
        {
          mark: { type: "bar", color: "#aaa" },
          encoding: { x: q("year", { title: "Year", axis: { format: "d" } }), y: q("wheat", { title: "Shillings" }) },
        },
        { mark: { type: "line", color: "firebrick" }, encoding: { x: q("year"), y: q("wages") } },
      ],
    },
  ],
  [
    "wheat-affordability",
    "trend",
    "retail/wheat-prices-and-wages",
    "How much wheat a week's wage bought",
    "Weekly wages divided by the price of a quarter of wheat.",
    {
      transform: [{ filter: "datum.wages != null" }, { calculate: "datum.wages / datum.wheat", as: "quarters" }],
      mark: "line",
      encoding: {
        x: q("year", { axis: { format: "d" }, title: "Year" }),
        y: q("quarters", { title: "Quarters of wheat per weekly wage" }),
      },
    },
  ],
  [
    "inflation-by-region",
    "distribution",
    "retail/consumer-price-inflation",
    "Consumer price inflation by region",
    "Spread of 2014 consumer price inflation in each Factbook region.",
    boxplot("region", "inflation_pct", { category: "Region", value: "Inflation (%)" }),
  ],
  [
    "inflation-vs-income",
    "relationship",
    "retail/consumer-price-inflation",
    "Inflation and income per person",
    "Countries by GDP per person (PPP, log) and consumer price inflation.",
    scatter(
      q("gdp_per_capita_ppp", { scale: { type: "log" }, title: "GDP per person (PPP, USD)" }),
      q("inflation_pct", { title: "Inflation (%)" }),
      { color: n("region"), tooltip: [n("country")] },
      [{ filter: "datum.gdp_per_capita_ppp > 0 && datum.inflation_pct != null" }],
    ),
  ],

  // cms
  [
    "births-by-weekday-cdc",
    "comparison",
    "cms/us-births-cdc-1994-2003",
    "Births by day of week (CDC)",
    "Mean daily births on each weekday: scheduled deliveries avoid weekends.",
    {
      mark: "bar",
      encoding: {
        x: o("day_of_week", { title: "Weekday", axis: { labelExpr: WEEKDAY_LABELS } }),
        y: q("births", { aggregate: "mean", title: "Mean births" }),
      },
    },
  ],
  [
    "births-calendar-heatmap",
    "matrix",
    "cms/us-births-cdc-1994-2003",
    "Births by calendar day",
    "Mean births on each day of the year: holidays stand out.",
    {
      mark: "rect",
      encoding: {
        x: o("date_of_month", { title: "Day of month" }),
        y: o("month", { title: "Month", axis: { labelExpr: MONTH_LABELS } }),
        color: q("births", { aggregate: "mean", title: "Mean births" }),
      },
    },
  ],
  [
    "births-per-year-ssa",
    "trend",
    "cms/us-births-ssa-2000-2014",
    "US births per year (SSA)",
    "Total births recorded each year 2000–2014.",
    {
      mark: { type: "line", point: true },
      encoding: {
        x: o("year", { title: "Year" }),
        y: q("births", { aggregate: "sum", scale: { zero: false }, title: "Births" }),
      },
    },
  ],
  [
    "births-by-month-ssa",
    "comparison",
    "cms/us-births-ssa-2000-2014",
    "Births by month (SSA)",
    "Mean daily births in each calendar month: a late-summer peak.",
    {
      mark: "bar",
      encoding: {
        x: o("month", { title: "Month", axis: { labelExpr: MONTH_LABELS } }),
        y: q("births", { aggregate: "mean", title: "Mean daily births" }),
      },
    },
  ],
  [
    "health-spending-vs-life",
    "relationship",
    "cms/health-expenditure",
    "Health spending and life expectancy",
    "Countries by health expenditure (% of GDP) and life expectancy.",
    scatter(
      q("health_expenditure_pct_gdp", { title: "Health expenditure (% of GDP)" }),
      q("life_expectancy", { scale: { zero: false }, title: "Life expectancy (years)" }),
      { color: n("region"), tooltip: [n("country")] },
      [{ filter: "datum.health_expenditure_pct_gdp != null && datum.life_expectancy != null" }],
    ),
  ],
  [
    "health-spending-top",
    "ranking",
    "cms/health-expenditure",
    "Highest health spending",
    "The 20 countries that spend the largest share of GDP on health.",
    topBars(
      "country",
      "health_expenditure_pct_gdp",
      "sum",
      20,
      { category: "Country", value: "Health expenditure (% of GDP)" },
      [{ filter: "datum.health_expenditure_pct_gdp != null" }],
    ),
  ],
];

function toVisualization([name, category, dataset, title, description, body]: Entry): Visualization {
  const spec: VegaLiteSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title,
    description,
    data: troveData(dataset),
    ...("facet" in body ? {} : { width: 400, height: 260 }),
    ...body,
  };
  return { name, title, category, description, dataset, spec };
}

/** Every visualization of the gallery, in a stable order. */
export const VISUALIZATIONS: readonly Visualization[] = ENTRIES.map(toVisualization);

/** The gallery, or one category of it. */
export function visualizationsIn(category?: VisCategory): Visualization[] {
  return category ? VISUALIZATIONS.filter((v) => v.category === category) : [...VISUALIZATIONS];
}

/** How many of these visualizations fall in each category (every category listed, zeros included). */
export function countByCategory(
  visualizations: readonly Visualization[] = VISUALIZATIONS,
): Record<VisCategory, number> {
  const counts = Object.fromEntries(VIS_CATEGORIES.map((c) => [c, 0])) as Record<VisCategory, number>;
  for (const v of visualizations) counts[v.category] += 1;
  return counts;
}

export const CATEGORY_DESCRIPTIONS: Record<VisCategory, string> = {
  comparison: "values side by side across groups (bars, grouped bars, dot plots)",
  ranking: "the top items ordered by a measure",
  distribution: "how values spread (histograms, box plots, strips)",
  trend: "change over time (lines, areas, bars over dates)",
  relationship: "how two measures move together (scatter plots, fitted lines)",
  composition: "parts of a whole (stacked and normalised bars or areas, pies, roses)",
  geographic: "data placed by longitude and latitude on a projection",
  matrix: "two categories crossed, coloured by a measure (heatmaps)",
};
