#!/usr/bin/env python3
"""Writes the fixtures shaped as the apps write them, beside this script (the same bytes each run):

- strava-comma-decimal.csv: Strava's bulk export activities.csv (its 94-column header, two
  Distance and two Elapsed Time columns) from an account whose locale writes decimal commas:
  "10,02" quoted in a comma-separated file; "Jan 7, 2024, 12:05:00 AM" dates in UTC.
- garmin-pool-swim.csv: Garmin Connect's activities CSV with pool swims in metres written
  with a thousands separator ("1,500"), a run in kilometres, hh:mm:ss times, -- for none.
- strava-german.csv, strava-french.csv: Strava's activities.csv from accounts in German and
  French: the columns whose German and French headers the sources show, in the order of
  Strava's English header (both Distanz / Distance and both Verstrichene Zeit / Temps écoulé);
  German dates "07.01.2024, 00:05:00", French "7 janv. 2024 à 00:05:00", in UTC; distances in
  km with a decimal comma ("10,02"); German detailed columns with a point ("3118.0"), French
  ones with a comma ("3118,0"); the activity types in the account's language.
- apple-watch-run.gpx: a run as Apple Health exports a watch's route: no <type>, points with
  speed/course/accuracy extensions, lon before lat, one point every 10 s along a meridian,
  with a pause (a second segment).
"""
import os

here = os.path.dirname(os.path.abspath(__file__))

strava_header = (
    "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,"
    "Distance,Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,"
    "Filename,Athlete Weight,Bike Weight,Elapsed Time,Moving Time,Distance,Max Speed,"
    "Average Speed,Elevation Gain,Elevation Loss,Elevation Low,Elevation High,Max Grade,"
    "Average Grade,Average Positive Grade,Average Negative Grade,Max Cadence,Average Cadence,"
    "Max Heart Rate,Average Heart Rate,Max Watts,Average Watts,Calories,Max Temperature,"
    "Average Temperature,Relative Effort,Total Work,Number of Runs,Uphill Time,Downhill Time,"
    "Other Time,Perceived Exertion,Type,Start Time,Weighted Average Power,Power Count,"
    "Prefer Perceived Exertion,Perceived Relative Effort,Commute,Total Weight Lifted,"
    "From Upload,Grade Adjusted Distance,Weather Observation Time,Weather Condition,"
    "Weather Temperature,Apparent Temperature,Dewpoint,Humidity,Weather Pressure,Wind Speed,"
    "Wind Gust,Wind Bearing,Precipitation Intensity,Sunrise Time,Sunset Time,Moon Phase,Bike,"
    "Gear,Precipitation Probability,Precipitation Type,Cloud Cover,Weather Visibility,UV Index,"
    "Weather Ozone,Jump Count,Total Grit,Average Flow,Flagged,Average Elapsed Speed,"
    "Dirt Distance,Newly Explored Distance,Newly Explored Dirt Distance,Activity Count,"
    "Total Steps,Carbon Saved,Pool Length,Training Load,Intensity,"
    "Average Grade Adjusted Pace,Timer Time,Total Cycles,Media").split(",")
assert len(strava_header) == 94

def quote(field):
    if any(c in field for c in ',"\n\r'):
        return '"' + field.replace('"', '""') + '"'
    return field

# (id, date, name, type, elapsed, km, moving seconds)
activities = [
    ("10480000001", "Jan 7, 2024, 12:05:00 AM", "Nachtlauf", "Run", 3182, "10,02", "3118,0"),
    ("10480000002", "Jan 7, 2024, 9:41:13 AM", "Sortie vélo, vent", "Ride", 9067, "64,31", "8310,0"),
    ("10480000003", "Jan 8, 2024, 6:30:00 PM", "Piscine", "Swim", 2220, "1,50", "1985,5"),
    ("10480000004", "Jan 9, 2024, 12:00:59 PM", "Mittagsspaziergang", "Walk", 2496, "3,48", "2451,0"),
]
lines = [",".join(strava_header)]
for (aid, date, name, kind, elapsed, km, moving) in activities:
    row = [""] * 94
    row[0], row[1], row[2], row[3] = aid, date, name, kind
    row[5] = str(elapsed)
    row[6] = km
    row[7] = "171,0"
    row[9] = "false"
    row[12] = f"activities/{aid}.fit.gz"
    row[15] = f"{elapsed},0"
    row[16] = moving
    row[17] = km.replace(",", "") + "0,0"  # metres: 10,02 km is 10020,0
    row[19] = "3,142"
    row[34] = "689,0"
    row[44] = kind
    row[52] = "1,0"
    lines.append(",".join(quote(f) for f in row))
with open(os.path.join(here, "strava-comma-decimal.csv"), "w", newline="") as f:
    f.write("\n".join(lines) + "\n")

# (id, German date, French date, name, German type, French type, elapsed, km, moving seconds)
localized = [
    ("11250000001", "07.01.2024, 00:05:00", "7 janv. 2024 à 00:05:00", "Nachtlauf", "Lauf",
     "Course à pied", 3182, "10,02", "3118.0"),
    ("11250000002", "07.01.2024, 09:41:13", "7 janv. 2024 à 09:41:13",
     "Runde um den See, Gegenwind", "Radfahrt", "Vélo", 9067, "64,31", "8310.0"),
    ("11250000003", "08.01.2024, 18:30:00", "8 janv. 2024 à 18:30:00", "Piscine", "Schwimmen",
     "Natation", 2220, "1,50", "1985.5"),
    ("11250000004", "09.01.2024, 12:00:59", "9 janv. 2024 à 12:00:59", "Mittagsspaziergang",
     "Spaziergang", "Marche", 2496, "3,48", "2451.0"),
    ("11250000005", "13.02.2024, 10:15:00", "13 févr. 2024 à 10:15:00", "Randonnée, Taunus",
     "Wandern", "Randonnée", 14530, "14,87", "12604.0"),
    ("11250000006", "01.08.2024, 17:45:30", "1 août 2024 à 17:45:30", "Oberkörper",
     "Gewichtstraining", "Musculation", 2700, "0,00", "2700.0"),
]
german_header = ("Aktivitäts-ID,Aktivitätsdatum,Name der Aktivität,Aktivitätsart,"
    "Aktivitätsbeschreibung,Verstrichene Zeit,Distanz,Max. Herzfrequenz,Dateiname,"
    "Sportlergewicht,Fahrradgewicht,Verstrichene Zeit,Bewegungszeit,Distanz,Höchstgeschw.,"
    "Durchschnittliche Geschwindigkeit,Höhenzunahme,Höhenunterschied,Max. Herzfrequenz,"
    "Durchschnittliche Herzfrequenz,Kalorien")
french_header = ("ID de l'activité,Date de l'activité,Nom de l'activité,Type d'activité,"
    "Temps écoulé,Distance,Nom du fichier,Temps écoulé,Durée de déplacement,Distance,"
    "Vitesse max.,Vitesse moyenne,Dénivelé positif,Fréquence cardiaque moyenne")
german_lines, french_lines = [german_header], [french_header]
for (aid, de_date, fr_date, name, de_kind, fr_kind, elapsed, km, moving) in localized:
    meters = str(int(km.replace(",", "")) * 10) + ".0"  # 10,02 km is 10020.0
    german_lines.append(",".join(quote(f) for f in [
        aid, de_date, name, de_kind, "", str(elapsed), km, "171,0", f"activities/{aid}.fit.gz",
        "", "", f"{elapsed}.0", moving, meters, "4.2", "3.142", "52.0", "48.0", "171.0",
        "142.0", "689.0"]))
    french_lines.append(",".join(quote(f) for f in [
        aid, fr_date, name, fr_kind, str(elapsed), km, f"activities/{aid}.fit.gz",
        f"{elapsed},0", moving.replace(".", ","), meters.replace(".", ","), "4,2", "3,142",
        "52,0", "142,0"]))
for (name, lines) in [("strava-german.csv", german_lines), ("strava-french.csv", french_lines)]:
    with open(os.path.join(here, name), "w", newline="", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

garmin_header = ("Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR,Max HR,"
    "Aerobic TE,Avg Run Cadence,Max Run Cadence,Avg Pace,Best Pace,Total Ascent,Total Descent,"
    "Avg Stride Length,Avg Vertical Ratio,Avg Vertical Oscillation,Avg Ground Contact Time,"
    "Normalized Power® (NP®),Training Stress Score®,Avg Power,Max Power,Steps,Total Reps,"
    "Total Sets,Decompression,Best Lap Time,Number of Laps,Moving Time,Elapsed Time,"
    "Min Elevation,Max Elevation")
def garmin(kind, date, title, distance, time, pace, laps, moving, elapsed):
    fields = [kind, date, "false", title, distance, "412", time, "131", "158", "2.4", "--", "--",
              pace, pace, "--", "--", "--", "--", "--", "--", "--", "0.0", "--", "--", "--", "--",
              "--", "No", "00:01:52.4", laps, moving, elapsed, "--", "--"]
    return ",".join([fields[0], fields[1], fields[2]] + ['"' + x + '"' for x in fields[3:]])
garmin_rows = [
    garmin("Pool Swim", "2026-11-30 06:45:03", "Lap Swimming", "1,500", "00:31:12", "2:04", "60",
           "00:29:55", "00:33:40"),
    garmin("Running", "2026-11-29 07:30:12", "Paris Running", "10.02", "00:52:10", "5:12", "11",
           "00:51:58", "00:53:02"),
    garmin("Pool Swim", "2026-11-27 12:10:44", "Lap Swimming", "750", "00:15:01", "2:00", "30",
           "00:14:30", "00:15:49"),
]
with open(os.path.join(here, "garmin-pool-swim.csv"), "w", newline="") as f:
    f.write(garmin_header + "\n" + "\n".join(garmin_rows) + "\n")

def point(lat, seconds, speed):
    minutes, secs = divmod(seconds, 60)
    return (f'<trkpt lon="2.352200" lat="{lat:.6f}"><ele>35.{seconds % 7}</ele>'
            f"<time>2026-11-28T06:{45 + minutes:02d}:{secs:02d}Z</time><extensions>"
            f"<speed>{speed}</speed><course>0.0</course><hAcc>2.1</hAcc><vAcc>1.5</vAcc>"
            "</extensions></trkpt>")
# 31 points 10 s apart, 0.0003 degrees of latitude apart; then a pause of 60 s; then 11 more.
first = [point(48.8566 + i * 0.0003, i * 10, "3.34") for i in range(31)]
second = [point(48.8566 + 30 * 0.0003 + (i + 1) * 0.0003, 300 + 60 + i * 10, "3.34")
          for i in range(11)]
gpx = ['<?xml version="1.0" encoding="UTF-8"?>',
       '<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" '
       'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation='
       '"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
       "<metadata>", "<time>2026-11-28T06:45:00Z</time>", "</metadata>", "<trk>",
       "<name>Route 2026-11-28 7:45am</name>", "<trkseg>"] + first + ["</trkseg>", "<trkseg>"] + \
      second + ["</trkseg>", "</trk>", "</gpx>", ""]
with open(os.path.join(here, "apple-watch-run.gpx"), "w") as f:
    f.write("\n".join(gpx))
