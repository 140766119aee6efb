import json, re
W="www.wirenews.example"; L="ledger-times.example"; E="www.econdesk.example"; M="markets.wirenews.example"; C="cbwatch.example"; F="forum.tradertalk.example"
items = [
# (published, host, title, snippet)
("2000-02-02",C,"Fed raises federal funds target to 5.75%","The Federal Reserve's FOMC raised its federal funds rate target by a quarter point to 5.75%, citing the risk that demand growth would outpace supply."),
("2000-03-10",W,"Nasdaq closes at a record as technology rally extends","The Nasdaq Composite closed at an all-time high, capping a technology-led rally; valuations of internet companies drew warnings from some strategists."),
("2000-03-24",W,"S&P 500 closes at a record high","The S&P 500 index ended at a record close, led by technology shares, after a volatile month for growth stocks."),
("2000-04-14",W,"Stocks plunge; Nasdaq has its worst week ever","The Nasdaq fell 9.7% on the day and the S&P 500 lost 5.8% as a hotter-than-expected inflation report deepened a selloff in technology shares."),
("2000-05-16",C,"Fed raises rates by half a point to 6.5%","The FOMC raised the federal funds target by 50 basis points to 6.50%, its largest increase since 1995, to cool a fast-growing economy."),
("2001-01-03",C,"Fed surprises with half-point cut between meetings","In an unscheduled move the Federal Reserve cut the federal funds target by 50 basis points to 6.00%; stocks rallied sharply, the Nasdaq gaining 14%."),
("2001-01-31",C,"Fed cuts rates another half point to 5.5%","The FOMC lowered the federal funds target by 50 basis points to 5.50%, citing weakening sales and production."),
("2001-03-20",C,"Fed cuts rates to 5%; stocks fall on disappointment","The Federal Reserve cut its target by half a point to 5.00%; the S&P 500 fell as some investors had hoped for a larger move."),
("2001-04-18",C,"Fed cuts rates between meetings for the second time this year","A surprise 50-basis-point cut to 4.50% sent the S&P 500 up more than 3% and the Nasdaq up 8%."),
("2001-09-11",W,"Terror attacks close US stock markets","Hijacked airliners struck the World Trade Center and the Pentagon; the New York Stock Exchange and Nasdaq did not open and will stay closed for the rest of the week."),
("2001-09-17",C,"Fed cuts rates half a point before markets reopen","The Federal Reserve cut the federal funds target to 3.00% before trading resumed after the September 11 attacks."),
("2001-09-17",W,"Stocks tumble as trading resumes after attacks","The Dow Jones Industrial Average fell 684 points, or 7.1%, its largest point drop to date, as US markets reopened after a four-day closure."),
("2001-11-26",E,"NBER says the US entered recession in March 2001","The National Bureau of Economic Research's dating committee said the expansion that began in March 1991 ended in March 2001."),
("2001-12-02",L,"Enron files for bankruptcy protection","Enron filed for Chapter 11 protection in what was then the largest corporate bankruptcy in US history, weeks after restating years of earnings."),
("2001-12-11",C,"Fed cuts rates for the eleventh time this year, to 1.75%","The FOMC lowered the federal funds target a quarter point to 1.75%, the lowest in four decades."),
("2002-07-21",L,"WorldCom files for bankruptcy after accounting fraud","WorldCom filed for Chapter 11 protection, surpassing Enron as the largest US bankruptcy, after disclosing billions in improperly booked expenses."),
("2002-07-30",E,"Sarbanes-Oxley corporate reform signed into law","President Bush signed the Sarbanes-Oxley Act, tightening audit oversight and requiring executives to certify their companies' financial statements."),
("2002-10-09",W,"S&P 500 closes at its lowest since 1997","US stocks extended a two-and-a-half-year bear market; the S&P 500 has lost roughly half its value since its March 2000 peak."),
("2002-11-06",C,"Fed cuts rates by half a point to 1.25%","The FOMC cut the federal funds target by 50 basis points to 1.25%, more than expected, citing a soft patch in the economy."),
("2003-03-20",W,"US-led forces begin military action in Iraq","Stocks have rallied for a week on expectations of a quick campaign; oil prices fell as the war began."),
("2003-05-28",E,"Bush signs tax cut on dividends and capital gains","The Jobs and Growth Tax Relief Reconciliation Act cut the top tax rate on dividends and long-term capital gains to 15%."),
("2003-06-25",C,"Fed cuts rates a quarter point to 1%","The FOMC lowered the federal funds target to 1.00%, a 45-year low, citing the risk of an unwelcome fall in inflation."),
("2003-07-17",E,"NBER dates the end of the recession to November 2001","The National Bureau of Economic Research said the contraction that began in March 2001 ended in November 2001."),
("2004-06-30",C,"Fed raises rates for the first time in four years","The FOMC raised the federal funds target a quarter point to 1.25% and said further removal of accommodation could be measured."),
("2006-06-29",C,"Fed raises rates to 5.25%, its 17th straight increase","The FOMC lifted the federal funds target to 5.25% and said the extent of any further firming would depend on the data."),
("2007-02-27",W,"Stocks post biggest drop since 2001 after China selloff","The Dow fell 416 points, or 3.3%, after a 9% slide in Shanghai shares and a warning about a possible US recession."),
("2007-06-22",L,"Bear Stearns pledges funds to rescue a subprime hedge fund","Bear Stearns offered up to $3.2 billion to prop up one of two troubled hedge funds exposed to subprime mortgage securities."),
("2007-08-09",L,"BNP Paribas freezes funds; ECB injects liquidity","BNP Paribas suspended three funds exposed to US subprime mortgages, saying it could not value them; the ECB provided 95 billion euros to money markets."),
("2007-08-17",C,"Fed cuts the discount rate by half a point","The Federal Reserve cut the rate it charges banks to 5.75% and said downside risks to growth had increased appreciably."),
("2007-09-18",C,"Fed cuts the federal funds rate by half a point to 4.75%","The first cut in the federal funds target in four years was larger than many expected; the Dow rose 336 points."),
("2007-10-09",W,"S&P 500 closes at a record high","The S&P 500 closed at a record, surpassing its March 2000 peak, after minutes showed the Fed open to further easing."),
("2008-01-22",C,"Fed makes emergency three-quarter-point cut","Between meetings, the Federal Reserve cut the federal funds target by 75 basis points to 3.50% as global stock markets tumbled."),
("2008-01-30",C,"Fed cuts rates again, to 3%","The FOMC lowered the federal funds target by another 50 basis points, its second cut in nine days."),
("2008-03-16",L,"JPMorgan to buy Bear Stearns for $2 a share with Fed backing","In a weekend deal, JPMorgan Chase agreed to acquire Bear Stearns; the Federal Reserve agreed to fund up to $30 billion of Bear's less liquid assets."),
("2008-03-18",C,"Fed cuts rates by three quarters of a point to 2.25%","The FOMC cut the federal funds target by 75 basis points; the S&P 500 rose more than 4%."),
("2008-07-13",E,"Treasury and Fed move to support Fannie Mae and Freddie Mac","The Treasury asked Congress for authority to lend to and invest in the mortgage giants; the Fed opened its discount window to them."),
("2008-09-07",E,"Fannie Mae and Freddie Mac placed into conservatorship","The government took control of the two mortgage finance companies, with the Treasury committing capital to keep them solvent."),
("2008-09-15",L,"Lehman Brothers files for bankruptcy; Merrill Lynch agrees sale","Lehman Brothers filed for Chapter 11 protection after talks to rescue it failed; Bank of America agreed to buy Merrill Lynch. The Dow fell 504 points."),
("2008-09-16",C,"Fed lends $85 billion to AIG","The Federal Reserve authorised an $85 billion loan to American International Group in exchange for a majority stake."),
("2008-09-29",W,"House rejects bailout plan; Dow plunges 777 points","The House of Representatives voted down the $700 billion rescue plan; the S&P 500 fell 8.8%."),
("2008-10-03",E,"Bush signs $700 billion financial rescue into law","The Emergency Economic Stabilization Act created the Troubled Asset Relief Program (TARP) to buy troubled assets and inject capital into banks."),
("2008-10-08",C,"Central banks make coordinated rate cuts","The Federal Reserve, the ECB and four other central banks cut rates together; the federal funds target fell to 1.50%."),
("2008-10-13",W,"Stocks soar after governments pledge bank support","The S&P 500 rose 11.6% and the Dow gained 936 points, their biggest one-day gains in decades, after European governments backed their banks."),
("2008-12-01",E,"NBER says the recession began in December 2007","The National Bureau of Economic Research dated the peak of the expansion to December 2007; the S&P 500 fell 8.9% on the day."),
("2008-12-16",C,"Fed cuts its target to a range of zero to 0.25%","The FOMC set a target range for the federal funds rate of 0 to 0.25% and said it would use all available tools."),
("2009-02-17",E,"Obama signs $787 billion stimulus bill","The American Recovery and Reinvestment Act combines tax cuts and spending to counter the recession."),
("2009-03-09",W,"S&P 500 closes at its lowest since 1996","Stocks extended their slide; the S&P 500 has fallen more than 55% from its October 2007 record."),
("2009-03-10",W,"Stocks rally 6% as Citigroup says it is profitable","Financial shares led a broad rally after Citigroup's chief executive said the bank had been profitable in the first two months of the year."),
("2009-03-18",C,"Fed to buy up to $300 billion of Treasuries","The Federal Reserve expanded its asset purchases, adding longer-term Treasuries and more mortgage-backed securities."),
("2009-05-07",E,"Bank stress tests find 10 banks need $75 billion","Regulators said 10 of the 19 largest banks must raise a combined $74.6 billion of capital."),
("2010-05-02",E,"Greece agrees 110 billion euro rescue","Eurozone governments and the IMF agreed a three-year loan package for Greece in exchange for austerity measures."),
("2010-05-06",W,"Dow plunges nearly 1,000 points in minutes before rebounding","In a 'flash crash' US stocks fell about 9% intraday within minutes and recovered most of the loss; some shares briefly traded for a penny."),
("2010-09-20",E,"NBER says the recession ended in June 2009","The National Bureau of Economic Research dated the trough of the 2007-2009 recession to June 2009, making it the longest since World War II."),
("2010-10-01",L,"Regulators' report blames a large sell order for the flash crash","A joint SEC-CFTC report said an automated sell program in index futures set off the May 6 collapse."),
("2010-11-03",C,"Fed launches a second round of bond buying","The FOMC said it would buy $600 billion of longer-term Treasuries by mid-2011."),
("2011-01-27",E,"Crisis inquiry commission says the crisis was avoidable","The Financial Crisis Inquiry Commission's report cited failures of regulation, risk management and corporate governance."),
("2011-08-02",E,"Debt ceiling deal signed hours before deadline","President Obama signed the Budget Control Act, raising the debt limit and setting spending caps."),
("2011-08-05",L,"S&P strips the United States of its AAA rating","Standard & Poor's lowered the US long-term credit rating one notch to AA+ after markets closed, citing the political brinkmanship over the debt limit."),
("2011-08-08",W,"Stocks plunge on first trading day after US downgrade","The S&P 500 fell 6.7%, its worst day since December 2008."),
("2012-07-26",E,"Draghi: ECB will do 'whatever it takes' to preserve the euro","The ECB president's pledge in London sent European bond yields lower and lifted stocks worldwide."),
("2012-09-13",C,"Fed launches open-ended bond buying","The FOMC said it would buy $40 billion of mortgage-backed securities a month until the labour market improves substantially."),
("2013-05-22",C,"Bernanke says the Fed could slow bond buying","The Fed chairman told Congress that purchases could be reduced in the next few meetings if data improved, setting off a 'taper tantrum' in bond markets."),
("2013-12-18",C,"Fed begins to taper its bond purchases","The FOMC reduced monthly asset purchases by $10 billion to $75 billion; stocks rose to records."),
("2015-08-11",E,"China devalues the yuan","The People's Bank of China cut the yuan's reference rate by nearly 2%, its biggest move in two decades."),
("2015-08-24",W,"Dow drops more than 1,000 points at the open","A global selloff triggered by fears about China's economy sent the Dow down more than 1,000 points in minutes; the S&P 500 closed down 3.9%."),
("2015-12-16",C,"Fed raises rates for the first time since 2006","The FOMC raised the federal funds target range to 0.25%-0.50%, ending seven years near zero."),
("2016-01-15",W,"Stocks slump as oil falls below $30","US stocks fell more than 2% as oil dropped below $30 a barrel, extending the worst start to a year on record."),
("2016-02-11",W,"S&P 500 hits its lowest close in nearly two years","Stocks fell as oil slid toward $26 and bank shares dropped; the index is down more than 13% from its May 2015 record."),
("2016-06-24",W,"Stocks tumble after UK votes to leave the EU","The S&P 500 fell 3.6% and the pound hit a 31-year low after Britain voted for Brexit."),
("2016-11-09",W,"Stocks rally after Trump's election victory","Futures plunged overnight, but the S&P 500 closed up 1.1%, led by banks and industrials."),
("2016-12-14",C,"Fed raises rates a quarter point to 0.50%-0.75%","The FOMC raised rates for the second time in a decade and signalled three increases in 2017."),
("2018-02-05",W,"Dow falls 1,175 points as volatility spikes","The S&P 500 fell 4.1%; the VIX volatility index more than doubled, wiping out funds that bet against volatility."),
("2018-10-10",W,"S&P 500 falls 3.3% in its worst day since February","Technology shares led a broad selloff as Treasury yields rose."),
("2018-12-19",C,"Fed raises rates to 2.25%-2.50% despite market turmoil","The FOMC raised rates for the fourth time in 2018 and said balance sheet runoff would continue; stocks fell."),
("2018-12-24",W,"Stocks slide in Christmas Eve selloff","The S&P 500 fell 2.7%, leaving it nearly 20% below its September record, amid a government shutdown and concern over the Fed."),
("2018-12-26",W,"Dow gains 1,086 points, its largest point gain ever","Stocks rebounded sharply after the Christmas Eve selloff; the S&P 500 rose 5%."),
("2019-01-04",C,"Powell says the Fed will be patient","The Fed chairman said the central bank would be flexible on rates and its balance sheet; the S&P 500 rose 3.4%."),
("2019-07-31",C,"Fed cuts rates for the first time since 2008","The FOMC cut its target range by a quarter point to 2.00%-2.25%, citing global developments and muted inflation."),
("2020-01-30",E,"WHO declares a global health emergency over the coronavirus","The World Health Organization declared the novel coronavirus outbreak a public health emergency of international concern."),
("2020-02-19",W,"S&P 500 closes at a record high","The S&P 500 closed at a record as investors looked past the coronavirus outbreak in China."),
("2020-02-24",W,"Dow falls over 1,000 points as the virus spreads","The S&P 500 fell 3.4% as coronavirus cases surged in Italy and South Korea."),
("2020-03-03",C,"Fed makes emergency half-point rate cut","The Federal Reserve cut its target range to 1.00%-1.25% between meetings to counter the coronavirus's economic risks; stocks fell 2.8%."),
("2020-03-09",W,"Trading halted as stocks plunge 7.6% on oil price war","A market-wide circuit breaker halted trading minutes after the open as oil collapsed and coronavirus fears grew."),
("2020-03-11",E,"WHO declares the coronavirus outbreak a pandemic","The World Health Organization characterised COVID-19 as a pandemic."),
("2020-03-12",W,"Stocks suffer their worst day since 1987","The S&P 500 fell 9.5% as travel restrictions and the pandemic's spread deepened fears of a global recession."),
("2020-03-15",C,"Fed cuts rates to near zero and restarts bond buying","In a Sunday announcement the Federal Reserve cut its target range to 0-0.25% and said it would buy at least $700 billion of securities."),
("2020-03-16",W,"S&P 500 plunges 12% despite Fed's emergency action","Stocks fell in their worst day since 1987 as the pandemic shut down parts of the economy."),
("2020-03-23",C,"Fed pledges unlimited bond buying and backs corporate credit","The Federal Reserve said it would buy Treasuries and mortgage securities in the amounts needed and set up facilities to buy corporate bonds."),
("2020-03-24",W,"Dow surges 11% in its best day since 1933","Stocks rallied as Congress neared agreement on a fiscal rescue package."),
("2020-03-27",E,"Trump signs the $2.2 trillion CARES Act","The coronavirus relief law provides direct payments, expanded unemployment benefits and loans to businesses."),
("2020-04-09",C,"Fed unveils up to $2.3 trillion in new lending","The Federal Reserve announced programmes to lend to small and mid-sized businesses and to state and local governments."),
]
syndicated = {  # index in items -> extra outlets (same story)
 9: [M, "news.ledger-times.example"], 37: [M, "www.ledger-times.example"], 51: [L, F], 57: [W, "www.ledger-times.example"], 63: [L], 83: [M, "www.econdesk.example"],
}
later = [  # published after the days they describe
("2015-04-21",L,"Trader charged over the 2010 flash crash","US authorities charged a London-based futures trader with manipulation that contributed to the May 6, 2010 flash crash."),
("2018-09-14",E,"Ten years after Lehman: how the crisis reshaped markets","A look back at the September 15, 2008 bankruptcy of Lehman Brothers and the market rally that followed the March 2009 low."),
("2009-09-14",F,"One year on: the week Lehman fell","Forum thread recalling the weekend before September 15, 2008 and the S&P 500's fall in the following weeks."),
("2012-03-09",W,"The bull market turns three","Three years after the March 9, 2009 low, the S&P 500 has more than doubled."),
("2021-03-23",W,"A year after the pandemic low, stocks have doubled","The S&P 500 has risen about 75% since its March 23, 2020 low."),
]
undated = [
("www.econdesk.example","Explainer: what the federal funds rate is","The federal funds rate is the overnight rate at which banks lend reserves to each other; the FOMC sets a target for it eight times a year."),
("learn.wirenews.example","Timeline: the 2008 financial crisis","From the Bear Stearns rescue to TARP and the March 2009 market bottom: the key dates of the crisis and how stocks recovered."),
("www.tradertalk.example","How market-wide circuit breakers work","Trading in US stocks halts for 15 minutes when the S&P 500 falls 7% or 13% from the prior close, and for the day at 20%."),
("ledger-times.example","Why the index recovered from every bear market","An evergreen essay on recoveries after the 2002, 2009 and 2020 lows."),
("wire.synthnews.example","Alfa Systems (ALFA) company profile [synthetic]","SYNTHETIC ITEM: profile of Alfa Systems (ALFA), a synthetic technology instrument in the bundled simulation. No date is given."),
("www.marketdesk.example","Echo Bancorp (ECHO) background [synthetic]","SYNTHETIC ITEM: background on Echo Bancorp (ECHO), a synthetic financials instrument in the bundled simulation. No date is given."),
]
def slug(s): return re.sub(r"[^a-z0-9]+","-",s.lower()).strip("-")[:60]
out=[]
for i,(d,h,t,s) in enumerate(items):
    base=f"{d}-{slug(t)}"
    out.append({"id":f"mkt-{base}","title":t,"url":f"https://{h}/{d.replace('-','/')}/{slug(t)}","snippet":s,"published":d})
    for j,h2 in enumerate(syndicated.get(i,[])):
        out.append({"id":f"mkt-{base}-copy{j+1}","title":t,"url":f"https://{h2}/syndicated/{slug(t)}","snippet":s,"published":d})
for d,h,t,s in later:
    out.append({"id":f"mkt-{d}-{slug(t)}","title":t,"url":f"https://{h}/{d.replace('-','/')}/{slug(t)}","snippet":s,"published":d})
for h,t,s in undated:
    out.append({"id":f"undated-{slug(t)}","title":t,"url":f"https://{h}/explainers/{slug(t)}","snippet":s,"published":None})
open("market.jsonl","w").write("".join(json.dumps(o)+"\n" for o in out))
print(len(items), len(out))
for i in syndicated: print(items[i][2])
