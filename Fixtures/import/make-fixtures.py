#!/usr/bin/env python3
"""Writes the import fixtures beside this script, deterministically (the same bytes each run):

- strava-activities.csv: 2,000 activities as Strava's "Download your data" writes
  activities.csv — its header (two Distance and two Elapsed Time columns), quoted dates such
  as "Nov 29, 2026, 7:30:00 AM" in UTC, distances in km in the first Distance column and in
  metres in the second, descriptions with commas and quotes, empty fields.
- european.csv: semicolons, distances in miles with a decimal comma, DD/MM/YYYY dates.
- tracks/*.gpx: three GPX tracks as a watch writes them (one file with two tracks).
"""
import math, os, random

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(29)

header = ("Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,"
          "Elapsed Time,Distance,Max Heart Rate,Relative Effort,Commute,Activity Private Note,"
          "Activity Gear,Filename,Athlete Weight,Bike Weight,Elapsed Time,Moving Time,Distance,"
          "Max Speed,Average Speed,Elevation Gain,Elevation Loss,Calories")
names = {"Run": ["Morning Run", "Lunch Run", "Evening Run", "Long run", "Intervals 6x800",
                 "Tempo, hilly", "Parkrun \u2615"],
         "Ride": ["Morning Ride", "Afternoon Ride", "Commute", "Gravel loop", "Col du Galibier"],
         "Swim": ["Pool swim", "Open water"],
         "Walk": ["Walk with the dog", "Evening Walk"]}
months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

def strava_date(t):
    # t: seconds since 2021-01-01 UTC (a Friday); Strava writes UTC, 12-hour clock.
    import datetime
    d = datetime.datetime(2021, 1, 1) + datetime.timedelta(seconds=t)
    hour = d.hour % 12 or 12
    return f"{months[d.month - 1]} {d.day}, {d.year}, {hour}:{d.minute:02d}:{d.second:02d} " + (
        "AM" if d.hour < 12 else "PM")

def quote(field):
    if any(c in field for c in ',"\n\r'):
        return '"' + field.replace('"', '""') + '"'
    return field

lines = [header]
t = 0
for index in range(2000):
    t += rng.randint(14 * 3600, 40 * 3600)
    kind = rng.choice(["Run"] * 5 + ["Ride"] * 3 + ["Swim", "Walk"])
    name = rng.choice(names[kind])
    km = {"Run": rng.uniform(3, 22), "Ride": rng.uniform(12, 120), "Swim": rng.uniform(0.5, 4),
          "Walk": rng.uniform(1, 9)}[kind]
    km = round(km, 2)
    elapsed = int(km * {"Run": 330, "Ride": 130, "Swim": 1500, "Walk": 720}[kind])
    description = rng.choice(["", "", "Felt good", 'Windy, "fresh" legs', "PR!"])
    row = [str(4_100_000_000 + index * 7919), strava_date(t), name, kind, description,
           str(elapsed), f"{km:.2f}", f"{rng.randint(130, 190)}.0", str(rng.randint(5, 200)),
           rng.choice(["false", "false", "true"]), "", rng.choice(["", "Pegasus 40", "Canyon"]),
           f"activities/{4_100_000_000 + index * 7919}.fit.gz", "", "", f"{elapsed}.0",
           f"{int(elapsed * 0.95)}.0", f"{km * 1000:.1f}", f"{rng.uniform(3, 15):.1f}",
           f"{km * 1000 / elapsed:.3f}", f"{rng.uniform(0, 900):.1f}", "", str(int(km * 60))]
    lines.append(",".join(quote(field) for field in row))
with open(os.path.join(here, "strava-activities.csv"), "w", newline="") as f:
    f.write("\n".join(lines) + "\n")

european = ["name;distance;date;complexity",
            "Lauf am Morgen;3,1 mi;29/11/2026;medium",
            "Radtour;24,85 mi;28/11/2026;high",
            "\"Schwimmen; Hallenbad\";0,62 mi;27/11/2026;low",
            "Spaziergang;1,5 mi;01/12/2026;"]
with open(os.path.join(here, "european.csv"), "w", newline="") as f:
    f.write("\r\n".join(european) + "\r\n")

def track(name, start_lat, start_lon, start, points, step):
    out = ["  <trk>"] + ([f"    <name>{name}</name>"] if name else []) + ["    <trkseg>"]
    lat, lon = start_lat, start_lon
    for i in range(points):
        seconds = start + i * 5
        out.append(f'      <trkpt lat="{lat:.6f}" lon="{lon:.6f}"><ele>{35 + i % 7}.0</ele>'
                   f"<time>2026-11-{29 - seconds // 86400:02d}T{(seconds // 3600) % 24:02d}:"
                   f"{(seconds // 60) % 60:02d}:{seconds % 60:02d}Z</time></trkpt>")
        lat += step[0]
        lon += step[1]
    return out + ["    </trkseg>", "  </trk>"]

def gpx(tracks):
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      '<gpx version="1.1" creator="Watch" xmlns="http://www.topografix.com/GPX/1/1">',
                      "  <metadata><time>2026-11-29T07:30:00Z</time></metadata>"]
                     + sum(tracks, []) + ["</gpx>", ""])

os.makedirs(os.path.join(here, "tracks"), exist_ok=True)
with open(os.path.join(here, "tracks", "2026-11-29-morning-run.gpx"), "w") as f:
    f.write(gpx([track("Morning Run", 48.8566, 2.3522, 7 * 3600 + 30 * 60, 400, (0.00009, 0.00004))]))
with open(os.path.join(here, "tracks", "2026-11-28-ride.gpx"), "w") as f:
    f.write(gpx([track(None, 45.7640, 4.8357, 86400 + 9 * 3600, 600, (0.0003, 0.0002))]))
with open(os.path.join(here, "tracks", "2026-11-27-two-laps.gpx"), "w") as f:
    f.write(gpx([track("Lap 1", 51.5007, -0.1246, 2 * 86400 + 18 * 3600, 120, (0.0001, 0.0)),
                 track("Lap 2", 51.5007, -0.1246, 2 * 86400 + 18 * 3600 + 900, 120, (0.0, 0.00015))]))
